import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CSV_BOM,
  CSV_LINE_END,
  STATS_CSV_HEADER,
  defaultStatsWindow,
  statsCsvFileName,
  statsCsvCells,
  statsTicketsAnswerSchema,
  statsTicketsPagedQuerySchema,
  statsTicketsQuerySchema,
  toCsvLine,
  type StatsTicketsQuery,
} from '@fsm/contracts';
import { statsCsvPages, statsTickets, statsTicketsPage, type StatsCsvItem, type StatsTicketsFilters } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../auth/principal.js';
import { sendJsonText } from '../../http/json-text.js';
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

/**
 * The file as a byte stream: BOM and header, then one chunk per page (a few
 * milliseconds of work now that the dates come written). The first page is
 * read before the answer starts (so a failure there is still a proper JSON
 * error); the others are read only as the client takes the bytes.
 */
async function* csvChunks(first: IteratorResult<StatsCsvItem[], void>, pages: AsyncGenerator<StatsCsvItem[], void, undefined>): AsyncGenerator<Buffer> {
  yield Buffer.from(CSV_BOM + toCsvLine(STATS_CSV_HEADER) + CSV_LINE_END, 'utf8');
  if (first.done) return;
  yield Buffer.from(first.value.map(csvLine).join(''), 'utf8');
  for (let next = await pages.next(); !next.done; next = await pages.next()) yield Buffer.from(next.value.map(csvLine).join(''), 'utf8');
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
      return sendJsonText(reply, await statsTickets(deps.pool, scope, filters, now));
    },
  );

  typed.get('/api/stats/tickets.csv', { schema: { querystring: statsTicketsQuerySchema } }, async (request, reply) => {
    const scope = statsScopeOf(principalOf(request), request.query.agence_id);
    const now = deps.clock();
    const pages = statsCsvPages(deps.pool, scope, filtersOf(request.query, now), now);
    const first = await pages.next();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${statsCsvFileName(now)}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(csvChunks(first, pages), { objectMode: false }));
  });
}
