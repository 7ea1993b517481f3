import type { WebSocket } from 'ws';
import type { Position } from '@fsm/eventstore';

export interface LiveMessage {
  position: Position | null;
  /** Ids whose read-model rows changed (tickets, clients, ...). */
  streams?: string[];
  /** The client must refetch everything it shows (gap, rebuild, overflow). */
  resync?: boolean;
}

interface Advance {
  position: Position;
  ids: string[];
  truncated: boolean;
}

/**
 * Pushes projection advances to connected browsers. Messages carry ids and
 * positions only, never row data: each client refetches through the normal,
 * scope-checked API. A reconnecting client sends the last position it saw and
 * gets what it missed from a bounded history, or `resync`.
 */
export class LiveHub {
  private readonly clients = new Set<WebSocket>();
  private readonly history: Advance[] = [];
  constructor(
    private readonly compare: (a: Position, b: Position) => number,
    private readonly historySize = 1_000,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  attach(socket: WebSocket, since: Position | null): void {
    this.clients.add(socket);
    socket.on('close', () => this.clients.delete(socket));
    socket.on('error', () => this.clients.delete(socket));
    if (since !== null) this.replay(socket, since);
  }

  publish(advance: Advance): void {
    this.history.push(advance);
    if (this.history.length > this.historySize) this.history.splice(0, this.history.length - this.historySize);
    const message: LiveMessage = advance.truncated
      ? { position: advance.position, resync: true }
      : { position: advance.position, streams: advance.ids };
    this.broadcast(message);
  }

  /** After a rebuild every client refetches. */
  reset(): void {
    this.history.length = 0;
    this.broadcast({ position: null, resync: true });
  }

  closeAll(): void {
    for (const socket of this.clients) socket.close(1001, 'arrêt du serveur');
    this.clients.clear();
  }

  private replay(socket: WebSocket, since: Position): void {
    const oldest = this.history[0];
    // Only replay when the history surely covers everything after `since`.
    if (!oldest || this.compare(oldest.position, since) > 0) {
      const newest = this.history[this.history.length - 1];
      if (newest && this.compare(newest.position, since) > 0) send(socket, { position: newest.position, resync: true });
      else if (!newest) send(socket, { position: null, resync: true });
      return;
    }
    const missed = this.history.filter((advance) => this.compare(advance.position, since) > 0);
    if (missed.length === 0) return;
    const last = missed[missed.length - 1]!;
    if (missed.some((advance) => advance.truncated)) return send(socket, { position: last.position, resync: true });
    send(socket, { position: last.position, streams: [...new Set(missed.flatMap((advance) => advance.ids))] });
  }

  private broadcast(message: LiveMessage): void {
    const text = JSON.stringify(message);
    for (const socket of this.clients) if (socket.readyState === socket.OPEN) socket.send(text);
  }
}

function send(socket: WebSocket, message: LiveMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/** Every projected batch the watcher sees goes out to the browsers. */
export function connectLiveHub(watcher: { on(event: 'advanced', listener: (advance: Advance) => void): unknown; on(event: 'reset', listener: () => void): unknown }, live: LiveHub): void {
  watcher.on('advanced', (advance) => live.publish(advance));
  watcher.on('reset', () => live.reset());
}
