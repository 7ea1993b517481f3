import type { PoolConfig } from 'pg';

/**
 * The settings every process of the product opens its Postgres pool with.
 *
 * - JIT is off: the product's statements are short, and on the long ones (a
 *   year of statistics, a rebuild's batches) compiling cost 50–115 ms a
 *   query for no gain at these sizes (docs/benchmarks.md).
 * - `work_mem` is 16 MB instead of the server's 4 MB default: a year of an
 *   agency's statistics or closed tickets (60,000 rows at 1M tickets) sorted
 *   on disk in three 3 MB runs; in memory it ran 15–60 % faster. A sort uses
 *   it only when it needs it.
 */
export function productPoolConfig(connectionString: string, max: number): PoolConfig {
  return { connectionString, max, options: '-c jit=off -c work_mem=16MB' };
}
