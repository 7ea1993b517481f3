import { Link } from 'react-router';
import { formatNumber } from '../../../lib/format';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useClosedMatches } from '../api/find-closed-matches';

/**
 * « 1 ticket clos correspond : N° LYO-2026-00042 — Voir » under the open
 * board's "nothing matches" (issue 32, item 9): the closed tickets the text
 * matches, asked once typing pauses. One opens its detail; several open the
 * closed view on that search.
 */
export function ClosedMatchesOffer({ text }: { text: string }) {
  const typed = useDebouncedValue(text.trim());
  const matches = useClosedMatches(typed, typed !== '').data;
  if (!matches || matches.total === 0 || matches.search.q !== text.trim()) return null;
  const only = matches.total === 1 ? matches.tickets[0] : undefined;
  if (matches.total === 1 && !only) return null;
  if (only) {
    return (
      <p className="closed-matches" role="status">
        1 ticket clos correspond : N° {only.num_chrono} —{' '}
        <Link to={`/tickets/${encodeURIComponent(only.id)}`} aria-label={`Voir le ticket clos ${only.num_chrono}`}>
          Voir
        </Link>
      </p>
    );
  }
  const closedView = new URLSearchParams({ statut: 'clos', q: matches.search.q });
  if (matches.search.date_debut) closedView.set('date_debut', matches.search.date_debut);
  if (matches.search.date_fin) closedView.set('date_fin', matches.search.date_fin);
  return (
    <p className="closed-matches" role="status">
      {formatNumber(matches.total)} tickets clos correspondent —{' '}
      <Link to={`/tickets?${closedView.toString()}`} aria-label="Voir les tickets clos correspondants">
        Voir
      </Link>
    </p>
  );
}
