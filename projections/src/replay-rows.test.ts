import { describe, expect, it } from 'vitest';
import { ReplayRows } from './replay-rows.js';

describe('ReplayRows', () => {
  it('runs the folds of a table one at a time, in the order asked: each starts from the rows the one before kept', async () => {
    const rows = new ReplayRows();
    let release!: () => void;
    const loading = new Promise<void>((resolve) => (release = resolve));
    const seen: unknown[] = [];
    // Batch N's fold waits for a load; batch N+1's is asked for meanwhile.
    const first = rows.inTurn('rm.tickets', async (cached) => {
      await loading;
      cached.keep(new Map([['ticket-1', { statut: 'clos' }]]));
    });
    const second = rows.inTurn('rm.tickets', async (cached) => {
      seen.push(cached.get('ticket-1'));
    });
    // Another table's fold does not wait for them.
    await rows.inTurn('rm.ticket_sla', async () => {
      seen.push('rm.ticket_sla');
    });
    release();
    await Promise.all([first, second]);
    expect(seen).toEqual(['rm.ticket_sla', { statut: 'clos' }]);
  });

  it('keeps the rows of the last batch only', async () => {
    const rows = new ReplayRows();
    const keep = (entries: [string, number][]) => rows.inTurn('rm.tickets', async (cached) => cached.keep(new Map(entries.map(([key, revision]) => [key, { revision }]))));
    const get = (key: string) => rows.inTurn('rm.tickets', async (cached) => cached.get(key));
    await keep([['a', 1], ['b', 1]]);
    expect(await get('b')).toEqual({ revision: 1 });
    await keep([['a', 2]]);
    expect(await get('a')).toEqual({ revision: 2 });
    expect(await get('b')).toBeUndefined();
  });

  it('forgets a table once the folds asked for before are done, and goes on after a fold that failed', async () => {
    const rows = new ReplayRows();
    let release!: () => void;
    const loading = new Promise<void>((resolve) => (release = resolve));
    const kept = rows.inTurn('rm.ticket_sla', async (cached) => {
      await loading;
      cached.keep(new Map([['ticket-1', { sla_ok: true }]]));
    });
    rows.forget('rm.ticket_sla');
    const failed = rows.inTurn('rm.ticket_sla', async () => {
      throw new Error('échec');
    });
    release();
    await kept;
    await expect(failed).rejects.toThrow('échec');
    expect(await rows.inTurn('rm.ticket_sla', async (cached) => cached.get('ticket-1'))).toBeUndefined();
  });
});
