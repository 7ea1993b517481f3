import pg from 'pg';

export interface AppendListenerOptions {
  connection: pg.ClientConfig;
  channel: string;
  /** Called on every notification, and after every (re)connect. */
  onWake: () => void;
  onError: (error: unknown) => void;
  reconnectDelayMs: number;
}

/**
 * One dedicated LISTEN connection per store, shared by its subscriptions, for
 * appends made by other processes. A LISTEN needs a connection of its own (a
 * pooled one would drop it on release) and lives only as long as that
 * connection, so after any error it reconnects and LISTENs again. Every
 * (re)connect also wakes the subscribers: notifications sent while the
 * connection was down are lost, and the subscribers poll anyway.
 */
export class AppendListener {
  private client: pg.Client | null = null;
  private running = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: AppendListenerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (!this.running) return;
    const client = new pg.Client(this.options.connection);
    this.client = client;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      client.end().catch(() => undefined);
      // A client already stopped or replaced has nothing left to recover.
      if (this.client !== client) return;
      this.client = null;
      if (!this.running) return;
      this.options.onError(error);
      this.scheduleReconnect();
    };
    // Registered before connect: an unhandled 'error' on a pg client would crash the process.
    client.on('error', fail);
    client.on('end', () => fail(new Error('event-store LISTEN connection closed')));
    client.on('notification', (message) => {
      if (message.channel === this.options.channel) this.options.onWake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.options.channel)}`);
    } catch (error) {
      fail(error);
      return;
    }
    if (!this.running || failed || this.client !== client) {
      await client.end().catch(() => undefined);
      return;
    }
    this.options.onWake();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || !this.running) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, this.options.reconnectDelayMs);
  }
}
