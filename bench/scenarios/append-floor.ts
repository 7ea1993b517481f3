import pg from 'pg';
import { distribution, type Distribution } from '../lib/stats.js';
import type { BenchDatabase } from './context.js';

export interface FloorResult {
  clients: number;
  commitsPerSecond: number;
  latency: Distribution;
}

/**
 * The physical yardstick: single-row INSERT commits (autocommit, one row of
 * a command-sized jsonb each) into a scratch table of the bench database,
 * from 1 and 16 connections, for `seconds` each.
 */
export async function appendFloor(db: BenchDatabase, seconds: number, levels: readonly number[] = [1, 16]): Promise<FloorResult[]> {
  await db.pool.query(`CREATE SCHEMA IF NOT EXISTS bench`);
  await db.pool.query(`DROP TABLE IF EXISTS bench.append_floor`);
  await db.pool.query(`CREATE TABLE bench.append_floor (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
  const payload = JSON.stringify({ type: 'TicketTakenInCharge', data: { technicien: { id: '7d3c2b1a-0000-4000-8000-000000000001', prenom: 'Julien', nom: 'Garnier' }, takenAt: new Date().toISOString() } });
  const results: FloorResult[] = [];
  for (const clients of levels) {
    const connections = await Promise.all(
      Array.from({ length: clients }, async () => {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        return client;
      }),
    );
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      connections.map(async (client) => {
        while (performance.now() < deadline) {
          const t = performance.now();
          await client.query('INSERT INTO bench.append_floor (payload) VALUES ($1)', [payload]);
          latencies.push(performance.now() - t);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    await Promise.all(connections.map((client) => client.end()));
    results.push({ clients, commitsPerSecond: latencies.length / elapsed, latency: distribution(latencies) });
  }
  await db.pool.query(`DROP TABLE IF EXISTS bench.append_floor`);
  return results;
}
