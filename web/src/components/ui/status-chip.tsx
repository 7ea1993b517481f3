import { STATUT_LABELS, type Statut } from '../../lib/ticket-statuses';

/** A ticket's status, coloured the same way everywhere (UI.md). */
export function StatusChip({ statut }: { statut: Statut }) {
  return <span className={`chip status-${statut}`}>{STATUT_LABELS[statut]}</span>;
}
