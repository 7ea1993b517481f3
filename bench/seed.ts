/*
 * npm run bench:seed -- --tickets 1000000 [--database fsm_bench] [--days 730] [--seed 42]
 *
 * Drops and recreates the bench database, creates reference data through the
 * product's own commands and routes, writes N tickets' history through the
 * event store's append function, then rebuilds the read models. See
 * bench/README.md.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ticketAgencyCode } from '@fsm/contracts';
import { createBlobStore, createPostgresEventStore, parsePostgresPosition, productPoolConfig } from '@fsm/eventstore';
import { ProjectionRunner, readModelProjectors, RUNNER_SCHEMA } from '@fsm/projections';
import { photoPng, signaturePng } from '@fsm/workers/test-support';
import { adminDatabaseUrl, checkDatabaseName, databaseUrl, intOption, log, parseArgs, stringOption } from './lib/args.js';
import { startInProcessApp } from './lib/in-process-app.js';
import { BulkAppender } from './seed/bulk-append.js';
import { lastCommittedPosition } from './lib/log-end.js';
import { generateHistory, type HistoryStats } from './seed/history.js';
import { createMasterData, masterDataSize, type MasterData } from './seed/master-data.js';
import { Random } from './seed/random.js';

export interface SeedOptions {
  tickets: number;
  database: string;
  /** Admin connection used to drop/create the database. */
  adminUrl?: string;
  /** Database URL to use instead of `database` on the default server (tests pass one they created). */
  url?: string;
  days?: number;
  seed?: number;
  /** Events per multi-stream append (one transaction). */
  chunkEvents?: number;
  /** Instant the history ends at (default: now, rounded to the minute). */
  end?: number;
  dataDir?: string;
  quiet?: boolean;
}

export interface SeedReport {
  database: string;
  url: string;
  dataDir: string;
  tickets: number;
  events: number;
  byType: Record<string, number>;
  masterSeconds: number;
  appendSeconds: number;
  appendEventsPerSecond: number;
  rebuildSeconds: number;
  rebuildEventsPerSecond: number;
  totalSeconds: number;
  peakRssMb: number;
  master: MasterData;
}

export const BENCH_SCHEMA = 'bench';
const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const benchDataDir = (database: string) => join(repoRoot, '.data', 'bench', database);

async function recreateDatabase(adminUrl: string, database: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${checkDatabaseName(database)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
}

/** Replays the whole log into fresh read models with the product's runner, printing progress. */
export async function rebuildReadModels(url: string, say: (message: string) => void): Promise<{ seconds: number; events: number }> {
  const pool = new pg.Pool(productPoolConfig(url, 4));
  pool.on('error', () => undefined);
  const store = createPostgresEventStore({ pool, applicationName: 'fsm-bench-rebuild' });
  const runner = new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 500 });
  try {
    await runner.migrate();
    const head = await lastCommittedPosition(pool);
    const headPosition = head === null ? 0 : Number(parsePostgresPosition(head).globalPosition);
    const started = Date.now();
    await runner.requestRebuild();
    await runner.start();
    let lastReport = started;
    for (;;) {
      const { rows } = await pool.query<{ position: string | null; rebuild_requested: boolean }>(`SELECT position, rebuild_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [runner.name]);
      const row = rows[0];
      if (row && !row.rebuild_requested && (head === null || (row.position !== null && store.comparePositions(row.position, head) >= 0))) break;
      if (Date.now() - lastReport > 10_000 && row?.position) {
        lastReport = Date.now();
        const at = Number(parsePostgresPosition(row.position).globalPosition);
        const rate = at / ((Date.now() - started) / 1000);
        say(`  projections : ${at.toLocaleString('fr-FR')} / ${headPosition.toLocaleString('fr-FR')} (${Math.round(rate)} évén./s)`);
      }
      await new Promise((done) => setTimeout(done, 250));
    }
    const seconds = (Date.now() - started) / 1000;
    const { rows } = await pool.query<{ count: string }>(`SELECT count(*) AS count FROM es.events`);
    await pool.query('VACUUM ANALYZE');
    return { seconds, events: Number(rows[0]?.count ?? 0) };
  } finally {
    await runner.stop();
    await store.close();
    await pool.end();
  }
}

export async function runSeed(options: SeedOptions): Promise<SeedReport> {
  const say = options.quiet ? () => undefined : log;
  const started = Date.now();
  let peakRss = 0;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
  try {
    const database = options.database;
    const url = options.url ?? databaseUrl(database);
    if (!options.url) await recreateDatabase(options.adminUrl ?? adminDatabaseUrl(), database);
    const dataDir = options.dataDir ?? benchDataDir(database);
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir, { recursive: true });
    const days = options.days ?? 730;
    const seed = options.seed ?? 42;
    const end = options.end ?? Math.floor(Date.now() / 60_000) * 60_000;
    say(`base ${database}, ${options.tickets.toLocaleString('fr-FR')} tickets sur ${days} jours`);

    // 1. Reference data through the product's commands and routes.
    const api = await startInProcessApp(url, dataDir);
    let master: MasterData;
    try {
      master = await createMasterData(api, masterDataSize(options.tickets), new Random(seed), (done) => say(`  ${done}`));
    } finally {
      await api.close();
    }
    const masterSeconds = (Date.now() - started) / 1000;
    say(`données de référence en ${masterSeconds.toFixed(1)} s`);

    // 2. Files the visits point at: real PNG signatures and one photo, in the product's file store.
    const blobs = createBlobStore(join(dataDir, 'files'));
    const signatureRefs = await Promise.all([1, 2, 3, 4].map((n) => blobs.put(signaturePng(n), 'png')));
    const photoRef = await blobs.put(photoPng(), 'png');

    // 3. The ticket history, a slice at a time through the append function.
    const pool = new pg.Pool({ connectionString: url, max: 2, application_name: 'fsm-bench-seed' });
    pool.on('error', () => undefined);
    let stats: HistoryStats;
    const appendStarted = Date.now();
    try {
      const appender = new BulkAppender(pool);
      let lastReport = Date.now();
      stats = await generateHistory(
        { tickets: options.tickets, days, end, master, signatureRefs, photoRef, seed },
        options.chunkEvents ?? 1_500,
        async (events) => {
          await appender.append(events);
          if (Date.now() - lastReport > 10_000) {
            lastReport = Date.now();
            const rate = appender.appended / ((Date.now() - appendStarted) / 1000);
            say(`  journal : ${appender.appended.toLocaleString('fr-FR')} événements (${Math.round(rate)}/s), RSS ${Math.round(process.memoryUsage().rss / 1e6)} Mo`);
          }
        },
      );
      await appender.drain();
      // The seeded visits' reports count as done: the workers' reactor starts at the head, not at 1M renders.
      const head = await lastCommittedPosition(pool);
      await pool.query(`CREATE SCHEMA IF NOT EXISTS jobs`);
      await pool.query(`CREATE TABLE IF NOT EXISTS jobs.reactor_checkpoints (name text PRIMARY KEY, position text, updated_at timestamptz NOT NULL DEFAULT now())`);
      await pool.query(`INSERT INTO jobs.reactor_checkpoints (name, position) VALUES ('reactor', $1) ON CONFLICT (name) DO UPDATE SET position = $1`, [head]);
    } finally {
      await pool.end();
    }
    const appendSeconds = (Date.now() - appendStarted) / 1000;
    say(`journal : ${stats.events.toLocaleString('fr-FR')} événements de tickets en ${appendSeconds.toFixed(1)} s (${Math.round(stats.events / appendSeconds)}/s)`);

    // 4. Read models.
    say('reconstruction des vues…');
    const rebuild = await rebuildReadModels(url, say);
    say(`vues reconstruites en ${rebuild.seconds.toFixed(1)} s (${Math.round(rebuild.events / rebuild.seconds)} évén./s sur ${rebuild.events.toLocaleString('fr-FR')})`);

    const report: SeedReport = {
      database,
      url,
      dataDir,
      tickets: stats.tickets,
      events: stats.events,
      byType: stats.byType,
      masterSeconds,
      appendSeconds,
      appendEventsPerSecond: stats.events / appendSeconds,
      rebuildSeconds: rebuild.seconds,
      rebuildEventsPerSecond: rebuild.events / rebuild.seconds,
      totalSeconds: (Date.now() - started) / 1000,
      peakRssMb: Math.round(Math.max(peakRss, process.memoryUsage().rss) / 1e6),
      master,
    };
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${BENCH_SCHEMA}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${BENCH_SCHEMA}.seed_report (id int PRIMARY KEY DEFAULT 1, report jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(`INSERT INTO ${BENCH_SCHEMA}.seed_report (id, report) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET report = $1, created_at = now()`, [JSON.stringify(report)]);
    } finally {
      await client.end();
    }
    say(`terminé en ${report.totalSeconds.toFixed(1)} s, RSS max ${report.peakRssMb} Mo`);
    return report;
  } finally {
    clearInterval(rssTimer);
  }
}

/** The reference data as the read models hold it: what `npm run bench` needs when the seed's own report is missing. */
async function masterFromReadModels(pool: pg.Pool): Promise<MasterData> {
  const users = (await pool.query<{ id: string; prenom: string; nom: string; email: string; role: string; agence_id: string | null }>(
    `SELECT id, prenom, nom, email, role, agence_id FROM rm.users WHERE NOT deleted ORDER BY email`,
  )).rows;
  const person = (u: (typeof users)[number]) => ({ id: u.id, prenom: u.prenom, nom: u.nom, email: u.email });
  const agences = (await pool.query<{ id: string; nom: string }>(`SELECT id, nom FROM rm.agences WHERE NOT deleted ORDER BY nom`)).rows;
  const installations = (
    await pool.query<{ id: string; nom: string; astreinte: number; delai: number; id_metier: string; metier_nom: string; site_id: string; site_nom: string; adresse: string; code_postal: string; ville: string; client_id: string; client_nom: string; agence_id: string }>(
      `SELECT i.id, i.nom, i.astreinte, i.delai, i.id_metier, i.metier_nom, s.id AS site_id, s.nom AS site_nom, s.adresse, s.code_postal, s.ville,
              c.id AS client_id, c.nom AS client_nom, c.agence_id
         FROM rm.installations i JOIN rm.sites s ON s.id = i.site_id JOIN rm.clients c ON c.id = s.client_id
        WHERE NOT i.deleted ORDER BY i.id`,
    )
  ).rows;
  const platformAdmin = users.find((u) => u.role === 'admin_plus');
  if (!platformAdmin) throw new Error('aucun compte admin_plus dans rm.users');
  return {
    platformAdmin: person(platformAdmin),
    agencies: agences.map((a) => ({
      id: a.id,
      nom: a.nom,
      code: ticketAgencyCode(a.nom),
      admin: person(users.find((u) => u.role === 'admin' && u.agence_id === a.id) ?? platformAdmin),
      technicians: users.filter((u) => (u.role === 'technicien' || u.role === 'technicien_plus') && u.agence_id === a.id).map(person),
    })),
    installations: installations.map((i) => ({
      id: i.id,
      nom: i.nom,
      astreinte: i.astreinte === 1 ? 1 : 0,
      delai: i.delai,
      metier: { id: i.id_metier, nom: i.metier_nom },
      site: { id: i.site_id, nom: i.site_nom, adresse: i.adresse, code_postal: i.code_postal, ville: i.ville },
      client: { id: i.client_id, nom: i.client_nom },
      agenceId: i.agence_id,
    })),
  };
}

/**
 * Re-projects an existing bench database and moves the reactor to the end of
 * its log — after a seed interrupted during its rebuild. When the seed's
 * report is missing, one is written from the read models (append figures
 * unknown: see the seed's log).
 */
export async function rebuildOnly(database: string): Promise<void> {
  const url = databaseUrl(database);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const head = await lastCommittedPosition(pool);
    await pool.query(`CREATE SCHEMA IF NOT EXISTS jobs`);
    await pool.query(`CREATE TABLE IF NOT EXISTS jobs.reactor_checkpoints (name text PRIMARY KEY, position text, updated_at timestamptz NOT NULL DEFAULT now())`);
    await pool.query(`INSERT INTO jobs.reactor_checkpoints (name, position) VALUES ('reactor', $1) ON CONFLICT (name) DO UPDATE SET position = $1`, [head]);
    const rebuild = await rebuildReadModels(url, log);
    log(`vues reconstruites en ${rebuild.seconds.toFixed(1)} s (${Math.round(rebuild.events / rebuild.seconds)} évén./s)`);
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${BENCH_SCHEMA}`);
    await pool.query(`CREATE TABLE IF NOT EXISTS ${BENCH_SCHEMA}.seed_report (id int PRIMARY KEY DEFAULT 1, report jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    const tickets = Number((await pool.query<{ count: string }>(`SELECT count(*) AS count FROM rm.tickets`)).rows[0]?.count ?? 0);
    const fallback: SeedReport = {
      database,
      url,
      dataDir: benchDataDir(database),
      tickets,
      events: rebuild.events,
      byType: {},
      masterSeconds: 0,
      appendSeconds: Number.NaN,
      appendEventsPerSecond: Number.NaN,
      rebuildSeconds: rebuild.seconds,
      rebuildEventsPerSecond: rebuild.events / rebuild.seconds,
      totalSeconds: Number.NaN,
      peakRssMb: 0,
      master: await masterFromReadModels(pool),
    };
    await pool.query(
      `INSERT INTO ${BENCH_SCHEMA}.seed_report (id, report) VALUES (1, $1)
       ON CONFLICT (id) DO UPDATE SET report = ${BENCH_SCHEMA}.seed_report.report || jsonb_build_object('rebuildSeconds', $2::float8, 'rebuildEventsPerSecond', $3::float8)`,
      [JSON.stringify(fallback), rebuild.seconds, rebuild.events / rebuild.seconds],
    );
  } finally {
    await pool.end();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  if (args.has('rebuild-only')) {
    rebuildOnly(checkDatabaseName(stringOption(args, 'database', 'fsm_bench'))).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`bench:seed --rebuild-only a échoué : ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  } else
  runSeed({
    tickets: intOption(args, 'tickets', 10_000),
    database: checkDatabaseName(stringOption(args, 'database', 'fsm_bench')),
    days: intOption(args, 'days', 730),
    seed: intOption(args, 'seed', 42),
    chunkEvents: intOption(args, 'chunk', 1_500),
  }).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench:seed a échoué : ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
