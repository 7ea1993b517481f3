import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Position } from '@fsm/eventstore';
import { PROJECTION_CHANNEL, type ProjectionAdvance } from './runner/announcements.js';
import { RUNNER_SCHEMA } from './stopped-projectors.js';

export interface ProjectionWatcherOptions {
  /** For polling the checkpoint. */
  pool: pg.Pool;
  /** For the dedicated LISTEN connection. */
  connectionString: string;
  /** Compares positions (the event store's comparator). */
  compare: (a: Position, b: Position) => number;
  runner?: string;
  /** Polling covers lost notifications and a dropped LISTEN connection. */
  pollIntervalMs?: number;
}

/**
 * Follows the projection checkpoint from any process: LISTEN for the runner's
 * announcements, and poll the checkpoint table as well. The API uses it for
 * read-your-writes (`waitFor(position)`) and to push changes over WebSockets.
 */
export class ProjectionWatcher extends EventEmitter {
  private readonly options: Required<ProjectionWatcherOptions>;
  private listener: pg.Client | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private current: Position | null = null;
  private closed = false;
  private readonly waiters = new Set<{ position: Position; resolve: (reached: boolean) => void; timer: NodeJS.Timeout }>();

  constructor(options: ProjectionWatcherOptions) {
    super();
    this.setMaxListeners(0);
    this.options = { runner: 'read-models', pollIntervalMs: 500, ...options };
  }

  get position(): Position | null {
    return this.current;
  }

  async start(): Promise<void> {
    await this.poll();
    await this.listen();
    this.schedulePoll();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters.clear();
    await this.listener?.end().catch(() => undefined);
  }

  /** Feeds an advance seen in this process (the one-process start skips the round trip). */
  observe(advance: ProjectionAdvance): void {
    if (advance.runner !== this.options.runner) return;
    this.advanceTo(advance.position, advance);
  }

  /** Resolves true once the read models include `position`, false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.current !== null && this.options.compare(this.current, position) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        position,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  private advanceTo(position: Position, advance?: ProjectionAdvance): void {
    if (this.current !== null && this.options.compare(position, this.current) <= 0) return;
    this.current = position;
    for (const waiter of this.waiters) {
      if (this.options.compare(position, waiter.position) >= 0) {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        waiter.resolve(true);
      }
    }
    this.emit('advanced', advance ?? { runner: this.options.runner, position, ids: [], truncated: true });
  }

  private async poll(): Promise<void> {
    try {
      const { rows } = await this.options.pool.query<{ position: string | null }>(
        `SELECT position FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`,
        [this.options.runner],
      );
      const position = rows[0]?.position ?? null;
      // A rebuild resets the checkpoint: follow it backwards too, and tell clients to resync.
      if (position === null || (this.current !== null && this.options.compare(position, this.current) < 0)) {
        if (this.current !== null) {
          this.current = position;
          this.emit('reset');
        }
      } else {
        this.advanceTo(position);
      }
    } catch {
      // Postgres down: the next poll tries again; health reports it.
    }
  }

  private schedulePoll(): void {
    if (this.closed) return;
    this.pollTimer = setTimeout(() => {
      void this.poll().finally(() => this.schedulePoll());
    }, this.options.pollIntervalMs);
    this.pollTimer.unref?.();
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on('error', () => {
      this.listener = undefined;
      setTimeout(() => void this.listen(), 1_000).unref?.();
    });
    client.on('notification', (message) => {
      if (message.channel !== PROJECTION_CHANNEL || !message.payload) return;
      try {
        const payload = JSON.parse(message.payload) as Partial<ProjectionAdvance> & { rebuild?: boolean; resync?: boolean };
        if (payload.runner !== this.options.runner) return;
        if (payload.rebuild) return void this.poll();
        // A stopped read model caught up below the position the others had reached: its rows changed, the position did not.
        if (payload.resync) return void this.emit('reset');
        if (typeof payload.position === 'string') {
          this.observe({ runner: payload.runner, position: payload.position, ids: payload.ids ?? [], truncated: payload.truncated ?? false });
        }
      } catch {
        // A malformed payload is ignored; polling still advances us.
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PROJECTION_CHANNEL}`);
      this.listener = client;
    } catch {
      await client.end().catch(() => undefined);
      setTimeout(() => void this.listen(), 1_000).unref?.();
    }
  }
}
