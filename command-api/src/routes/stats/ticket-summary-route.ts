import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ticketSummaryResponseSchema, defaultClosedTicketsRange, defaultStatsWindow } from '@fsm/contracts';
import { homeSummaryStats, ticketSummaryCounts } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, scopeOf } from '../../auth/principal.js';

/**
 * GET /api/tickets/summary: the home 'Résumé des tickets' (tickets spec §2),
 * for staff (télésurveillance gets 403 at the door), over their agency, or every agency
 * for admin_plus. The closed tiles count what /tickets?statut=clos shows by
 * default (tickets requested within the last 30 days), so a tile's number is
 * its list's length. Registered beside /api/tickets/:id: Fastify prefers the
 * static segment.
 */
export async function ticketSummaryRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/tickets/summary', { schema: { response: { 200: ticketSummaryResponseSchema } } }, async (request) => {
      const scope = scopeOf(principalOf(request));
      const now = deps.clock();
      const [counts, stats] = await Promise.all([
        ticketSummaryCounts(deps.pool, scope, defaultClosedTicketsRange(now)),
        homeSummaryStats(deps.pool, scope, defaultStatsWindow(now)),
      ]);
      return { counts, stats };
    });
}
