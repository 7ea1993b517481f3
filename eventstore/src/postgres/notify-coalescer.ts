import type pg from 'pg';

/**
 * Sends the cross-process wake-up: one `pg_notify` in its own transaction,
 * after the append has committed. Never inside the append: a pending NOTIFY
 * takes a cluster-wide lock at commit and serializes every appender. Bursts
 * are coalesced: at most one NOTIFY in flight and one queued behind it, since a
 * single notification already makes listeners read everything new.
 */
export class NotifyCoalescer {
  private inFlight: Promise<void> | null = null;
  private queued = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  request(): void {
    if (this.inFlight) {
      this.queued = true;
      return;
    }
    this.send();
  }

  /** Resolves once nothing is in flight (used on close). */
  async drain(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  private send(): void {
    this.queued = false;
    this.inFlight = this.pool
      .query('SELECT pg_notify($1, $2)', [this.channel, ''])
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.inFlight = null;
        if (this.queued) this.send();
      });
  }
}
