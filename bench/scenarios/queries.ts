import { addCalendarDays, defaultClosedTicketsRange, parisCalendarDay } from '@fsm/contracts';
import {
  closedTicketsPage,
  findTicket,
  homeSummaryStats,
  listOpenTickets,
  openTicketsPage,
  searchClosedTickets,
  statsTicketPages,
  statsTickets,
  statsTicketsPage,
  ticketSummaryCounts,
  type AgenceScope,
  type Queryable,
} from '@fsm/projections';
import { call, login } from '../lib/http.js';
import { distribution, type Distribution } from '../lib/stats.js';
import type { StackProcess } from '../lib/stack-process.js';
import type { BenchDatabase } from './context.js';

export interface QueryResult {
  name: string;
  path: string;
  /** Server time (Fastify's responseTime). */
  server: Distribution;
  /** Client-side time, for reference. */
  client: Distribution;
  rows: number | null;
  bytes: number;
}

interface Probe {
  name: string;
  /** Path, or a function giving a new one per repetition (ticket detail). */
  path: string | ((repetition: number) => string);
  as: 'agency' | 'platform';
  repetitions: number;
}

/** Representative filter values: the busiest client, site, installation, technician and trade of the agency over the default window. */
async function filterValues(db: BenchDatabase, agenceId: string, from: string) {
  const busiest = async (column: string) =>
    (
      await db.pool.query<{ value: string }>(
        `SELECT ${column}::text AS value FROM rm.tickets WHERE statut = 'clos' AND agence_id = $1 AND created_at >= $2::date AND ${column} IS NOT NULL
         GROUP BY ${column} ORDER BY count(*) DESC LIMIT 1`,
        [agenceId, from],
      )
    ).rows[0]?.value;
  return {
    client_id: await busiest('client_id'),
    site_id: await busiest('site_id'),
    installation_id: await busiest('installation_id'),
    technicien_id: await busiest('technicien_id'),
    metier_id: await busiest('metier_id'),
  };
}

export interface QueryPlan {
  name: string;
  lines: string[];
  executionMs: number;
  seqScans: string[];
}

/** Rows of an answer: a JSON array, the first array property of an object, or CSV lines minus the header. */
function countRows(body: unknown): number | null {
  if (Array.isArray(body)) return body.length;
  if (typeof body === 'string') return Math.max(0, body.split('\n').filter((line) => line.length > 0).length - 1);
  if (typeof body === 'object' && body !== null) {
    const list = Object.values(body).find((value) => Array.isArray(value));
    if (Array.isArray(list)) return list.length;
  }
  return null;
}

export async function queriesScenario(db: BenchDatabase, stack: StackProcess, repetitions: number, say: (m: string) => void, heavy = db.seed.tickets <= 200_000): Promise<QueryResult[]> {
  // Answers of several hundred thousand rows (a year, every agency, at 1M) take tens of seconds each: opt in with --heavy.
  const few = Math.max(2, Math.ceil(repetitions / 5));
  const agency = db.seed.master.agencies[0]!;
  const tokens = { agency: await login(stack.url, agency.admin.email), platform: await login(stack.url, db.seed.master.platformAdmin.email) };
  const now = new Date();
  const today = parisCalendarDay(now);
  const closedRange = defaultClosedTicketsRange(now);
  const values = await filterValues(db, agency.id, closedRange.date_debut);
  const ids = (await db.pool.query<{ id: string }>(`SELECT id FROM rm.tickets WHERE agence_id = $1 ORDER BY random() LIMIT $2`, [agency.id, Math.max(repetitions, 1)])).rows.map((r) => r.id);
  const month = `from=${addCalendarDays(today, -29)}&to=${today}`;
  const year = `from=${addCalendarDays(today, -364)}&to=${today}`;
  const probes: Probe[] = [
    { name: 'Liste des tickets ouverts (agence)', path: '/api/tickets', as: 'agency', repetitions },
    { name: 'Liste des tickets ouverts (toutes agences, admin_plus)', path: '/api/tickets', as: 'platform', repetitions },
    { name: 'Recherche clos, 30 jours par défaut (agence)', path: '/api/tickets/clos', as: 'agency', repetitions },
    ...(['client_id', 'site_id', 'installation_id', 'technicien_id', 'metier_id'] as const).map(
      (filter): Probe => ({ name: `Recherche clos + ${filter}`, path: `/api/tickets/clos?${filter}=${values[filter] ?? ''}`, as: 'agency', repetitions }),
    ),
    { name: 'Recherche clos + devis_attente', path: '/api/tickets/clos?devis_attente=1', as: 'agency', repetitions },
    { name: 'Recherche clos, un an (agence)', path: `/api/tickets/clos?date_debut=${addCalendarDays(today, -364)}&date_fin=${today}`, as: 'agency', repetitions: few },
    { name: 'Détail d’un ticket', path: (r) => `/api/tickets/${ids[r % ids.length]}`, as: 'agency', repetitions },
    { name: 'Statistiques 30 jours (agence)', path: `/api/stats/tickets?${month}`, as: 'agency', repetitions },
    { name: 'Statistiques 1 an (agence)', path: `/api/stats/tickets?${year}`, as: 'agency', repetitions: Math.max(3, Math.ceil(repetitions / 2)) },
    { name: 'Statistiques 30 jours (toutes agences)', path: `/api/stats/tickets?${month}`, as: 'platform', repetitions },
    ...(heavy ? [{ name: 'Statistiques 1 an (toutes agences)', path: `/api/stats/tickets?${year}`, as: 'platform', repetitions: few } satisfies Probe] : []),
    { name: 'Export CSV 1 an (agence)', path: `/api/stats/tickets.csv?${year}`, as: 'agency', repetitions: few },
    ...(heavy ? [{ name: 'Export CSV 1 an (toutes agences)', path: `/api/stats/tickets.csv?${year}`, as: 'platform', repetitions: few } satisfies Probe] : []),
  ];
  const results: QueryResult[] = [];
  for (const probe of probes) {
    const clientTimes: number[] = [];
    let rows: number | null = null;
    let bytes = 0;
    // One warm-up (plans, caches), not counted.
    const first = typeof probe.path === 'string' ? probe.path : probe.path(0);
    await call(stack.url, tokens[probe.as], 'GET', first);
    stack.mark();
    const paths = new Set<string>();
    for (let r = 0; r < probe.repetitions; r++) {
      const path = typeof probe.path === 'string' ? probe.path : probe.path(r);
      paths.add(path);
      const answer = await call<unknown>(stack.url, tokens[probe.as], 'GET', path);
      if (answer.status !== 200) throw new Error(`${probe.name} : ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      clientTimes.push(answer.ms);
      bytes = answer.bytes;
      const body = answer.body as unknown;
      rows = countRows(body);
    }
    const server = (await stack.collect()).timings.filter((t) => t.method === 'GET' && paths.has(t.url)).map((t) => t.ms);
    const result: QueryResult = { name: probe.name, path: first, server: distribution(server), client: distribution(clientTimes), rows, bytes };
    say(`  ${probe.name} : médiane ${result.server.median.toFixed(1)} ms, p95 ${result.server.p95.toFixed(1)} ms (${rows ?? '?'} lignes)`);
    results.push(result);
  }
  return results;
}

/** One statement under EXPLAIN (ANALYZE, BUFFERS): its plan, execution time and sequential scans. */
async function planOf(db: BenchDatabase, name: string, text: string, params?: unknown[]): Promise<QueryPlan> {
  const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
  const lines = rows.map((row) => row['QUERY PLAN']);
  const execution = lines.find((line) => line.startsWith('Execution Time'));
  return {
    name,
    lines,
    executionMs: execution ? Number(/([\d.]+) ms/.exec(execution)?.[1] ?? Number.NaN) : Number.NaN,
    seqScans: lines.filter((line) => line.includes('Seq Scan')).map((line) => line.trim()),
  };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the product's own SQL: the query functions
 * run against a Queryable that prefixes each statement, so the plans are
 * those of the exact text and parameters the API sends.
 */
export async function explainScenario(db: BenchDatabase): Promise<QueryPlan[]> {
  const agency = db.seed.master.agencies[0]!;
  const now = new Date();
  const today = parisCalendarDay(now);
  const closedRange = defaultClosedTicketsRange(now);
  const values = await filterValues(db, agency.id, closedRange.date_debut);
  const plans: QueryPlan[] = [];
  const explain = (name: string): Queryable => ({
    query: async (text: string, params?: unknown[]) => {
      plans.push(await planOf(db, name, text, params));
      // No rows: functions that need one throw after the plan is recorded (see `run`).
      return { rows: [], rowCount: 0 };
    },
  }) as unknown as Queryable;
  const one: AgenceScope = [agency.id];
  const run = async (work: Promise<unknown>) => {
    await work.catch(() => undefined);
  };
  await listOpenTickets(explain('Liste ouverts (agence)'), one, now);
  await listOpenTickets(explain('Liste ouverts (toutes agences)'), 'all', now);
  await searchClosedTickets(explain('Recherche clos 30 j (agence)'), one, now, closedRange);
  for (const filter of ['client_id', 'site_id', 'installation_id', 'technicien_id', 'metier_id'] as const) {
    const value = values[filter];
    if (value) await searchClosedTickets(explain(`Recherche clos + ${filter}`), one, now, { ...closedRange, [filter]: value });
  }
  await searchClosedTickets(explain('Recherche clos + devis_attente'), one, now, { ...closedRange, devis_attente: true });
  await searchClosedTickets(explain('Recherche clos 1 an (agence)'), one, now, { date_debut: addCalendarDays(today, -364), date_fin: today });
  const id = (await db.pool.query<{ id: string }>(`SELECT id FROM rm.tickets WHERE agence_id = $1 LIMIT 1`, [agency.id])).rows[0]?.id;
  if (id) await findTicket(explain('Détail'), one, id, now);
  await statsTickets(explain('Statistiques 30 j (agence)'), one, { from: addCalendarDays(today, -29), to: today }, now);
  await statsTickets(explain('Statistiques 1 an (agence)'), one, { from: addCalendarDays(today, -364), to: today }, now);
  await statsTickets(explain('Statistiques 1 an (toutes agences)'), 'all', { from: addCalendarDays(today, -364), to: today }, now);
  await statsTicketPages(explain('Export CSV, une page de 1000 (agence)'), one, { from: addCalendarDays(today, -364), to: today }, now).next();
  await run(homeSummaryStats(explain('Accueil : statistiques 30 j (agence)'), one, { from: addCalendarDays(today, -29), to: today }));
  await run(ticketSummaryCounts(explain('Accueil : compteurs (agence)'), one, closedRange));
  return plans;
}

// ─── Issue #19: first pages of the paged lists ────────────────────────────────

/** Rows per page as the web client asks them (docs/architecture.md, "Paged lists in the web client"). */
const TICKET_PAGE = 60;
const STATS_PAGE = 100;

export interface FirstPageTiming {
  name: string;
  /** Wall time of the query function (every statement of the page: rows, total, counts or summary), ms. */
  server: Distribution;
  rows: number;
  total: number;
}

/** The first page of each paged query, as the routes call it with the screens' page sizes. */
function firstPageQueries(db: BenchDatabase, now: Date): { name: string; run: (q: Queryable) => Promise<{ rows: number; total: number }> }[] {
  const agency = db.seed.master.agencies[0]!;
  const one: AgenceScope = [agency.id];
  const today = parisCalendarDay(now);
  const closed = defaultClosedTicketsRange(now);
  const back = (days: number) => ({ date_debut: addCalendarDays(today, -(days - 1)), date_fin: today });
  const window = (days: number) => ({ from: addCalendarDays(today, -(days - 1)), to: today });
  const open = (scope: AgenceScope) => async (q: Queryable) => {
    const page = await openTicketsPage(q, scope, now, {}, { limit: TICKET_PAGE });
    return { rows: page.tickets.length, total: page.total };
  };
  const closedPage = (scope: AgenceScope, range: { date_debut: string; date_fin: string }) => async (q: Queryable) => {
    const page = await closedTicketsPage(q, scope, now, range, { limit: TICKET_PAGE });
    return { rows: page.tickets.length, total: page.total };
  };
  const stats = (scope: AgenceScope, range: { from: string; to: string }) => async (q: Queryable) => {
    const page = await statsTicketsPage(q, scope, range, now, { limit: STATS_PAGE });
    return { rows: page.items.length, total: page.total };
  };
  return [
    { name: 'Page 1 : liste ouverts (agence)', run: open(one) },
    { name: 'Page 1 : liste ouverts (toutes agences)', run: open('all') },
    { name: 'Page 1 : clos 30 j (agence)', run: closedPage(one, closed) },
    { name: 'Page 1 : clos 30 j (toutes agences)', run: closedPage('all', closed) },
    { name: 'Page 1 : clos 1 an (agence)', run: closedPage(one, back(365)) },
    { name: 'Page 1 : clos 1 an (toutes agences)', run: closedPage('all', back(365)) },
    { name: 'Page 1 : clos 2 ans (agence)', run: closedPage(one, back(730)) },
    { name: 'Page 1 : clos 2 ans (toutes agences)', run: closedPage('all', back(730)) },
    { name: 'Page 1 : statistiques 30 j (agence)', run: stats(one, window(30)) },
    { name: 'Page 1 : statistiques 30 j (toutes agences)', run: stats('all', window(30)) },
    { name: 'Page 1 : statistiques 1 an (agence)', run: stats(one, window(365)) },
    { name: 'Page 1 : statistiques 1 an (toutes agences)', run: stats('all', window(365)) },
  ];
}

/**
 * Server time of each first page: the query function on the product's pool
 * settings (no HTTP, no JSON), one warm-up then `runs` calls; then each of
 * its statements once under EXPLAIN (ANALYZE, BUFFERS), named `<query> — requête n`.
 */
export async function firstPagesScenario(db: BenchDatabase, runs: number): Promise<{ timings: FirstPageTiming[]; plans: QueryPlan[] }> {
  const now = new Date();
  const timings: FirstPageTiming[] = [];
  const plans: QueryPlan[] = [];
  for (const query of firstPageQueries(db, now)) {
    let last = await query.run(db.pool);
    const samples: number[] = [];
    for (let r = 0; r < runs; r++) {
      const started = performance.now();
      last = await query.run(db.pool);
      samples.push(performance.now() - started);
    }
    timings.push({ name: query.name, server: distribution(samples), rows: last.rows, total: last.total });
    let statement = 0;
    const explain = {
      query: async (text: string, params?: unknown[]) => {
        plans.push(await planOf(db, `${query.name} — requête ${++statement}`, text, params));
        // The real rows, so the function goes on to its next statements as it does for the route.
        return db.pool.query(text, params);
      },
    } as unknown as Queryable;
    await query.run(explain);
  }
  return { timings, plans };
}
