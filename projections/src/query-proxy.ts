import type { PoolClient } from 'pg';

type Query = (...args: unknown[]) => unknown;

/**
 * The same connection with its `query` passed through `query` (which calls
 * the original, or not); every other member is the connection's own. How a
 * projector's transaction is handed to it rewritten for the rebuild's shadow
 * schema (blue-green.ts) or shared with other projectors (runner/batch-processor.ts).
 */
export function withQuery(client: PoolClient, query: (original: Query, ...args: unknown[]) => unknown): PoolClient {
  const original: Query = (...args) => (client.query as Query)(...args);
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return (...args: unknown[]) => query(original, ...args);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as Query).bind(target) : value;
    },
  });
}
