import { Redis } from 'ioredis';

/**
 * A Redis connection used only to answer "is Redis up?": it never queues
 * commands while disconnected, so a ping fails fast instead of hanging.
 */
export function createRedisProbe(url: string): { ping(): Promise<boolean>; close(): Promise<void> } {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', () => undefined);
  void redis.connect().catch(() => undefined);
  return {
    async ping() {
      try {
        const answer = await Promise.race([
          redis.ping(),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 1_000).unref()),
        ]);
        return answer === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}

/** Whether a Redis answers PING at `url` now: one connection, no retry, closed at once. */
export async function redisAnswers(url: string, connectTimeoutMs: number): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: connectTimeoutMs, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
