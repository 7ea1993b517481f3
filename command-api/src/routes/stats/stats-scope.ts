import { ForbiddenError, STATS_ACCESS_DENIED_MESSAGE, canSeeGlobalStats, canSeeStats } from '@fsm/contracts';
import type { AgenceScope } from '@fsm/projections';
import type { Principal } from '../../auth/principal.js';

/**
 * Which agencies' statistics the caller gets (management spec §6):
 * - tickets.stats-global: every agency, or the one chosen in the Agence filter;
 * - tickets.stats: their own agency only. The screen hides the Agence filter
 *   from them, so asking for another agency is a forged request and is
 *   refused rather than silently narrowed;
 * - neither (télésurveillance included, whatever was stored): 403 'Accès refusé.'
 */
export function statsScopeOf(principal: Principal, requestedAgenceId: string | undefined): AgenceScope {
  if (canSeeGlobalStats(principal)) return requestedAgenceId === undefined ? 'all' : [requestedAgenceId];
  if (!canSeeStats(principal) || !principal.agence_id) throw new ForbiddenError(STATS_ACCESS_DENIED_MESSAGE);
  if (requestedAgenceId !== undefined && requestedAgenceId !== principal.agence_id) throw new ForbiddenError(STATS_ACCESS_DENIED_MESSAGE);
  return [principal.agence_id];
}
