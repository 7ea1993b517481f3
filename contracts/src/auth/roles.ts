import { z } from 'zod';

/** Every role of the product, most powerful first. */
export const ROLES = ['admin_plus', 'admin', 'technicien_plus', 'technicien', 'telesurveillance'] as const;
export const roleSchema = z.enum(ROLES, { error: 'Rôle inconnu.' });
export type Role = z.infer<typeof roleSchema>;

/**
 * Roles given through the Utilisateurs screen. Remote-surveillance accounts are
 * created on their own screen (/telesurv), never by picking a role.
 */
export const STAFF_ROLES = ['admin_plus', 'admin', 'technicien_plus', 'technicien'] as const;
export const staffRoleSchema = z.enum(STAFF_ROLES, { error: 'Veuillez sélectionner un rôle.' });
export type StaffRole = z.infer<typeof staffRoleSchema>;

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  admin_plus: 'Administrateur plateforme',
  admin: "Administrateur d'agence",
  technicien_plus: 'Technicien +',
  technicien: 'Technicien',
  telesurveillance: 'Télésurveillance',
};

export function isStaffRole(role: Role): role is StaffRole {
  return (STAFF_ROLES as readonly Role[]).includes(role);
}
