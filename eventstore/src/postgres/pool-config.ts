import type { PoolConfig } from 'pg';

/**
 * The settings every process of the product opens its Postgres pool with.
 *
 * JIT is off: the product's statements are short, and on the long ones (a
 * year of statistics, a rebuild's batches) compiling cost 50–115 ms a query
 * for no gain at these sizes (docs/benchmarks.md).
 */
export function productPoolConfig(connectionString: string, max: number): PoolConfig {
  return { connectionString, max, options: '-c jit=off' };
}
