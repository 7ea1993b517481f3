import { ROLE_LABELS, assignableRoles, userCreateBodySchema, userFieldsSchema, type Role, type User } from '@fsm/contracts';
import type { SessionUser } from '../../../lib/session';

export interface UserFormValues {
  nom: string;
  prenom: string;
  email: string;
  telephone: string;
  role: string;
  agence_id: string;
}

export function userFormValues(user: User | null, defaults: { role: string; agence_id: string }): UserFormValues {
  if (!user) return { nom: '', prenom: '', email: '', telephone: '', ...defaults };
  return {
    nom: user.nom,
    prenom: user.prenom,
    email: user.email,
    telephone: user.telephone ?? '',
    role: user.role,
    agence_id: user.agence_id ?? '',
  };
}

/** admin_plus picks the agency (and must); everybody else's users land in their own agency (§6). */
export function picksAgence(me: Pick<SessionUser, 'role'>): boolean {
  return me.role === 'admin_plus';
}

/** Without the picker the agency is left out of the body: the server uses one's own. */
export const userFieldsCheck = (me: Pick<SessionUser, 'role'>) => (picksAgence(me) ? userFieldsSchema : userFieldsSchema.partial({ agence_id: true }));
export const userCreateCheck = (me: Pick<SessionUser, 'role'>) =>
  picksAgence(me) ? userCreateBodySchema : userCreateBodySchema.partial({ agence_id: true });

export function withoutAgenceUnlessPicked<T extends { agence_id?: string }>(me: Pick<SessionUser, 'role'>, values: T): T {
  if (picksAgence(me)) return values;
  const { agence_id: _ignored, ...rest } = values;
  return rest as T;
}

/** Roles offered: those one may grant, plus the user's current one so an unchanged save stays possible. */
export function roleOptions(me: Pick<SessionUser, 'role'>, current?: string): { value: string; label: string }[] {
  const roles: string[] = [...assignableRoles(me)];
  if (current && !roles.includes(current)) roles.unshift(current);
  return roles.map((role) => ({ value: role, label: ROLE_LABELS[role as Role] ?? role }));
}
