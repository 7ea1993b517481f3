/** Ticket statuses (spec §4). Urgent is a flag on the ticket, not one of these. */
export type Statut = 'ouvert' | 'en_cours' | 'intervention' | 'clos';

export const STATUT_LABELS: Record<Statut, string> = {
  ouvert: 'Ouvert',
  en_cours: 'En cours',
  intervention: 'Intervention',
  clos: 'Clos',
};

