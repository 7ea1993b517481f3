import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrivateRedis, type PrivateRedis } from './private-redis.js';
import { FAULTS_TOKEN_SECRET } from './world.js';

/** What the role processes of a fault test share: a private Redis, a data directory, and their environment. */
export interface RoleEnvironment {
  redis: PrivateRedis;
  env: Record<string, string>;
  /** Stops Redis and removes the data directory. */
  close(): Promise<void>;
}

export async function startRoleEnvironment(databaseUrl: string, label: string): Promise<RoleEnvironment> {
  const dataDir = await mkdtemp(join(tmpdir(), `fsm-faults-${label}-`));
  const redis = await startPrivateRedis();
  return {
    redis,
    env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, TOKEN_SECRET: FAULTS_TOKEN_SECRET, REDIS_URL: redis.url },
    async close() {
      await redis.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
