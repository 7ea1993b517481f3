import type { QueryClient } from '@tanstack/react-query';
import { LIVE_BATCH_TIMING, splitStreamName, type StreamInvalidators } from '../lib/live-updates';
import { lookupKeys } from '../lib/lookups/lookup-keys';
import { ticketKeys } from '../features/tickets/api/ticket-keys';
import { clientKeys } from '../features/clients/api/client-keys';
import { qrCodeKeys } from '../features/qrcodes/api/qrcode-keys';
import { refreshStatsPages } from '../features/stats/api/refresh-stats-pages';
import { statsKeys } from '../features/stats/api/stats-keys';
import { refreshTicketPages } from '../features/tickets/api/refresh-ticket-pages';
import { telesurvKeys } from '../features/telesurv-accounts/api/telesurv-keys';
import { templateKeys } from '../features/template-builder/api/template-keys';
import { userKeys } from '../features/users/api/user-keys';

/**
 * Stream category → query keys to refetch when one of its streams changes,
 * built from the features' query-key factories. A ticket's change refetches
 * the lists, the home summary and that ticket's detail (with its
 * interventions and history), never every detail in cache. Categories not
 * listed here make the client refetch everything.
 *
 * The management screens' keys sit under the same roots (`['clients', …]`,
 * `['interlocuteurs', …]`, `['agences', …]`, `['utilisateurs', …]`,
 * `['metiers', …]`), so these entries refresh them too; the extra keys below
 * are lists that show another category's names (an agency's name on clients
 * and users, a métier's on installations) or figures it changes (statistics).
 */
/** A métier's name shows on installations; its delay and HO_stats change the statistics. */
const metierChanged = () => [lookupKeys.metiers.all, lookupKeys.clients.all, lookupKeys.sites.all, statsKeys.all];

export const liveInvalidators: StreamInvalidators = {
  // The paged lists and statistics are not invalidated (every loaded page would be refetched): see livePageRefresher.
  ticket: (ids) => [ticketKeys.lists(), ticketKeys.summary(), ...ids.map(ticketKeys.detail)],
  client: () => [lookupKeys.clients.all],
  site: () => [lookupKeys.sites.all, lookupKeys.clients.all],
  installation: () => [lookupKeys.sites.all, lookupKeys.clients.all],
  interlocuteur: () => [lookupKeys.interlocuteurs.all],
  // An agency's hours change SLA deadlines, hence the statistics.
  agence: () => [lookupKeys.agences.all, clientKeys.lists(), userKeys.lists(), telesurvKeys.lists(), statsKeys.all],
  user: () => [lookupKeys.utilisateurs.all],
  utilisateur: () => [lookupKeys.utilisateurs.all],
  metiers: metierChanged,
  metier: metierChanged,
  qrcode: () => [qrCodeKeys.lists(), qrCodeKeys.unusedCount()],
  template: () => [templateKeys.all],
  // A report's generation or e-mail shows on its ticket's detail (the report id alone does not say which).
  report: () => [ticketKeys.details()],
};

/**
 * The paged ticket lists and statistics table, told of changed tickets,
 * refetch their first page and the loaded pages showing those tickets, not
 * every loaded page (issue #19). The ids of a burst are gathered and refreshed
 * once, as the invalidations are batched.
 */
export function livePageRefresher(queryClient: QueryClient, quietMs = LIVE_BATCH_TIMING.quietMs): (streams: readonly string[]) => void {
  let pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const ids = [...pending];
    pending = new Set();
    void refreshTicketPages(queryClient, ids);
    void refreshStatsPages(queryClient, ids);
  };
  return (streams) => {
    for (const stream of streams) {
      const { category, id } = splitStreamName(stream);
      if (category === 'ticket' && id) pending.add(id);
    }
    if (pending.size > 0 && timer === null) timer = setTimeout(flush, quietMs);
  };
}
