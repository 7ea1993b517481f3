/** Ticket statuses (spec §4). Urgent is a flag on the ticket, not one of these. */
export const STATUTS = ['ouvert', 'en_cours', 'intervention', 'clos'] as const;
export type Statut = (typeof STATUTS)[number];

export const STATUT_LABELS: Record<Statut, string> = {
  ouvert: 'Ouvert',
  en_cours: 'En cours',
  intervention: 'Intervention',
  clos: 'Clos',
};

export function isStatut(value: unknown): value is Statut {
  return typeof value === 'string' && (STATUTS as readonly string[]).includes(value);
}
