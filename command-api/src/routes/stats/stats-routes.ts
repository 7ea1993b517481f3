import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CSV_BOM,
  CSV_LINE_END,
  STATS_CSV_HEADER,
  defaultStatsWindow,
  statsCsvFileName,
  statsCsvRow,
  statsTicketsQuerySchema,
  statsTicketsResponseSchema,
  toCsvLine,
  type StatsTicketItem,
  type StatsTicketsQuery,
} from '@fsm/contracts';
import { statsTicketPages, statsTickets, type StatsTicketsFilters } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../auth/principal.js';
import { statsScopeOf } from './stats-scope.js';

/** Missing dates take the default window (29 days before today through today, Paris). */
function filtersOf(query: StatsTicketsQuery, now: Date): StatsTicketsFilters {
  const window = defaultStatsWindow(now);
  // The agency filter is applied through the scope (statsScopeOf).
  return { from: query.from ?? window.from, to: query.to ?? window.to, metier_id: query.metier_id };
}

/*
 * Formatting a row costs tens of microseconds (its Paris dates, mostly), so a
 * page is written in slices: each slice fills the stream's buffer and the
 * event loop serves other requests while the client drains it.
 */
const ROWS_PER_CHUNK = 200;

function* csvLines(items: readonly StatsTicketItem[]): Generator<Buffer> {
  for (let start = 0; start < items.length; start += ROWS_PER_CHUNK) {
    const lines = items.slice(start, start + ROWS_PER_CHUNK).map((item) => toCsvLine(statsCsvRow(item)) + CSV_LINE_END);
    yield Buffer.from(lines.join(''), 'utf8');
  }
}

/**
 * The file as a byte stream: BOM and header, then one chunk per page. The
 * first page is read before the answer starts (so a failure there is still a
 * proper JSON error); the others are read only as the client takes the bytes.
 */
async function* csvChunks(first: IteratorResult<StatsTicketItem[], void>, pages: AsyncGenerator<StatsTicketItem[], void, undefined>): AsyncGenerator<Buffer> {
  yield Buffer.from(CSV_BOM + toCsvLine(STATS_CSV_HEADER) + CSV_LINE_END, 'utf8');
  if (first.done) return;
  yield* csvLines(first.value);
  for (let next = await pages.next(); !next.done; next = await pages.next()) yield* csvLines(next.value);
}

/** GET /api/stats/tickets and its CSV export (management spec §2 Statistiques, §7, §9). */
export async function statsTicketsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/stats/tickets',
    { schema: { querystring: statsTicketsQuerySchema, response: { 200: statsTicketsResponseSchema } } },
    async (request) => {
      const scope = statsScopeOf(principalOf(request), request.query.agence_id);
      const now = deps.clock();
      return statsTickets(deps.pool, scope, filtersOf(request.query, now), now);
    },
  );

  typed.get('/api/stats/tickets.csv', { schema: { querystring: statsTicketsQuerySchema } }, async (request, reply) => {
    const scope = statsScopeOf(principalOf(request), request.query.agence_id);
    const now = deps.clock();
    const pages = statsTicketPages(deps.pool, scope, filtersOf(request.query, now), now);
    const first = await pages.next();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${statsCsvFileName(now)}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(csvChunks(first, pages), { objectMode: false }));
  });
}
