import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BOUNDED_ANSWER_MESSAGES,
  CSV_BOM,
  CSV_LINE_END,
  STATS_CSV_HEADER,
  defaultStatsWindow,
  statsCsvFileName,
  statsCsvCells,
  statsTicketsAnswerSchema,
  statsTicketsPagedQuerySchema,
  statsTicketsQuerySchema,
  summarizeStats,
  toCsvLine,
  type StatsSummary,
  type StatsTicketsQuery,
} from '@fsm/contracts';
import { STATS_PAGE_SIZE, statsCsvPages, statsItemPages, statsTicketsPage, type StatsCsvItem, type StatsTicketsFilters } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../auth/principal.js';
import { sendJsonText } from '../../http/json-text.js';
import { jsonArrayPage, rowCeiling, sendStreamed } from '../../http/streamed-answer.js';
import { statsScopeOf } from './stats-scope.js';

/** Missing dates take the default window (29 days before today through today, Paris). */
function filtersOf(query: StatsTicketsQuery, now: Date): StatsTicketsFilters {
  const window = defaultStatsWindow(now);
  // The agency filter is applied through the scope (statsScopeOf).
  return { from: query.from ?? window.from, to: query.to ?? window.to, metier_id: query.metier_id };
}

/** toCsvLine(statsCsvRow(item)), the dates already written by Postgres (statsCsvPages). */
function csvLine(item: StatsCsvItem): string {
  return toCsvLine(statsCsvCells(item, item.cree_le, item.cloture_le)) + CSV_LINE_END;
}

/** GET /api/stats/tickets and its CSV export (management spec §2 Statistiques, §7, §9). */
export async function statsTicketsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  /** The spec's `{ summary, items }`; with `limit` (issue #19) one page of items, the summary and weekly trend on the first. */
  typed.get(
    '/api/stats/tickets',
    { schema: { querystring: statsTicketsPagedQuerySchema, response: { 200: statsTicketsAnswerSchema } } },
    async (request, reply) => {
      const scope = statsScopeOf(principalOf(request), request.query.agence_id);
      const now = deps.clock();
      const { limit, cursor } = request.query;
      const filters = filtersOf(request.query, now);
      if (limit !== undefined) return sendJsonText(reply, await statsTicketsPage(deps.pool, scope, filters, now, { limit, cursor }));
      // Streamed (issue 28): the summary is added up by Postgres in the items' snapshot, then the items follow.
      let summary: StatsSummary | null = null;
      const pages = statsItemPages(deps.pool, scope, filters, now, {
        admit: rowCeiling(deps.env.UNPAGED_ROWS_MAX, BOUNDED_ANSWER_MESSAGES.tooManyStatsTickets),
        summary: (figures) => (summary = figures),
      });
      return sendStreamed(reply, pages, {
        headers: { 'content-type': 'application/json; charset=utf-8' },
        // A malformed filter id reads nothing: the summary of no item.
        head: () => `{"summary":${JSON.stringify(summary ?? summarizeStats([]))},"items":[`,
        page: jsonArrayPage(),
        tail: ']}',
      });
    },
  );

  typed.get('/api/stats/tickets.csv', { schema: { querystring: statsTicketsQuerySchema } }, async (request, reply) => {
    const scope = statsScopeOf(principalOf(request), request.query.agence_id);
    const now = deps.clock();
    const pages = statsCsvPages(deps.pool, scope, filtersOf(request.query, now), now, STATS_PAGE_SIZE, rowCeiling(deps.env.UNPAGED_ROWS_MAX, BOUNDED_ANSWER_MESSAGES.tooManyCsvTickets));
    // Pages of 1,000 lines: a few milliseconds of work each now that the dates come written.
    return sendStreamed(reply, pages, {
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${statsCsvFileName(now)}"`, 'cache-control': 'no-store' },
      head: () => CSV_BOM + toCsvLine(STATS_CSV_HEADER) + CSV_LINE_END,
      page: (page) => page.map(csvLine).join(''),
      tail: '',
    });
  });
}
