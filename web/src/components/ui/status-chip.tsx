import { STATUT_LABELS, type Statut } from '../../lib/ticket-statuses';
import { WarningIcon } from './icons';

/** A ticket's status, coloured the same way everywhere (UI.md). */
export function StatusChip({ statut }: { statut: Statut }) {
  return <span className={`chip status-${statut}`}>{STATUT_LABELS[statut]}</span>;
}

/**
 * Urgent is a flag, not a status (UI.md): a red chip with an icon, shown beside
 * the status chip, and a red edge on the card (`card--urgent`).
 */
export function UrgentChip({ label = 'Urgent' }: { label?: string }) {
  return (
    <span className="chip chip--urgent">
      <WarningIcon />
      {label}
    </span>
  );
}
