import type { RawData, WebSocket } from 'ws';
import { LIVE_AUTH_TIMEOUT_MS, LIVE_SESSION_ENDED_CLOSE_CODE, liveAuthMessageSchema, UnauthorizedError } from '@fsm/contracts';
import type { Position } from '@fsm/eventstore';
import type { ChangedIdScope } from '@fsm/projections';
import { inScope, scopeOf, type Principal } from '../auth/principal.js';
import { SESSION_EXPIRED } from '../auth/tokens.js';
import type { PositionSeal } from './live-positions.js';

/** A message as the hub builds it, with the store's position; it goes out sealed (`toWire`). */
export interface LiveMessage {
  position: Position | null;
  /** Ids whose read-model rows changed (tickets, clients, ...), those the socket's user may see only. */
  streams?: string[];
  /** The client must refetch everything it shows (gap, rebuild, overflow). */
  resync?: boolean;
}

interface Advance {
  position: Position;
  ids: string[];
  truncated: boolean;
}

/** An advance as kept for replays: with who each id belongs to (null when the lookup failed). */
interface StoredAdvance extends Advance {
  scopes: ReadonlyMap<string, ChangedIdScope> | null;
}

/** What the hub needs from the rest of the app (wired by buildApp). */
export interface LiveAccess {
  /** The principal of a session token; UnauthorizedError when it is refused (expired, revoked, account gone). */
  principalOf(token: string): Promise<Principal>;
  /** Who each id belongs to: one lookup per projected batch, whatever the number of sockets. */
  scopesOf(ids: readonly string[]): Promise<ReadonlyMap<string, ChangedIdScope>>;
}

export interface LiveTiming {
  /** A socket that has not authenticated by then is closed. */
  authTimeoutMs: number;
  /**
   * How often every open socket's session is checked again: what this
   * instance is not told about (a logout or a password reset handled by
   * another instance, an expiry) ends the socket within this delay.
   */
  recheckMs: number;
}

export const DEFAULT_LIVE_TIMING: LiveTiming = { authTimeoutMs: LIVE_AUTH_TIMEOUT_MS, recheckMs: 30_000 };

interface LiveSession {
  /** Kept to check the session again; never logged, never sent. */
  readonly token: string;
  principal: Principal;
}

const SERVICE_UNAVAILABLE = 'Service momentanément indisponible.';

/** Télésurveillance accounts see their ticket form only: what its cascade shows. */
const TELESURV_KINDS: ReadonlySet<ChangedIdScope['kind']> = new Set(['agence', 'client', 'site', 'installation', 'interlocuteur']);

/**
 * May this user learn that `id` changed? The rule of the REST routes (scopeOf):
 * admin_plus everything; others their agency's rows and the shared catalogues;
 * télésurveillance only its form's rows of the agencies it acts for. Anyone
 * hears about their own account. An id of unknown scope goes to admin_plus only.
 */
export function mayHear(principal: Principal, id: string, scope: ChangedIdScope | undefined): boolean {
  if (principal.role === 'admin_plus' || id === principal.id) return true;
  if (!scope) return false;
  if (principal.role === 'telesurveillance' && !TELESURV_KINDS.has(scope.kind)) return false;
  if (scope.agences === null) return true;
  const mine = scopeOf(principal);
  return scope.agences.some((agenceId) => inScope(mine, agenceId));
}

/**
 * Pushes projection advances to connected browsers. Messages carry ids and
 * positions only, never row data: each client refetches through the normal,
 * scope-checked API; and each socket gets only the ids its user may see.
 *
 * A socket authenticates with its first message (`{ type: 'auth', token }`),
 * so no session token sits in a URL; older clients' `?token=` still works.
 * The session is checked again periodically, when the account changes and
 * when this instance ends it (logout, password change): a refused session
 * closes the socket with 4401 'Session expirée'.
 *
 * A reconnecting client sends the last position it saw and gets what it missed
 * from a bounded history, or `resync`. Positions go out sealed (live-positions.ts):
 * the store's are platform-wide, and would tell an agency how much the others
 * write; a sealed one means something to this server only.
 */
export class LiveHub {
  private readonly sessions = new Map<WebSocket, LiveSession>();
  /** Open but not authenticated yet. */
  private readonly pending = new Set<WebSocket>();
  private readonly history: StoredAdvance[] = [];
  private access: LiveAccess | null = null;
  /** Advances go out one after the other, in order, each after its scope lookup. */
  private deliveries: Promise<void> = Promise.resolve();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;
  readonly timing: LiveTiming;

  constructor(
    private readonly compare: (a: Position, b: Position) => number,
    private readonly seal: PositionSeal,
    private readonly historySize = 1_000,
    timing: Partial<LiveTiming> = {},
  ) {
    this.timing = { ...DEFAULT_LIVE_TIMING, ...timing };
  }

  /** Authenticated sockets. */
  get size(): number {
    return this.sessions.size;
  }

  useAccess(access: LiveAccess): void {
    this.access = access;
  }

  /**
   * A new socket. It joins once its session token is accepted: `token` when
   * the client put one in the URL or a header (older clients), else its first
   * message. Until then it hears nothing.
   */
  accept(socket: WebSocket, options: { since: string | null; token?: string | undefined }): void {
    const access = this.access;
    if (!access) return void socket.close(LIVE_SESSION_ENDED_CLOSE_CODE, SESSION_EXPIRED);
    this.pending.add(socket);
    let settled = false;
    const timer = setTimeout(() => settle(null), this.timing.authTimeoutMs);
    const settle = (token: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (token === null) return this.end(socket);
      access
        .principalOf(token)
        .then(
          (principal) => {
            if (!this.pending.delete(socket) || socket.readyState !== socket.OPEN) return;
            this.join(socket, { token, principal }, options.since);
          },
          (error: unknown) => {
            if (error instanceof UnauthorizedError) return this.end(socket);
            throw error;
          },
        )
        // Postgres unreachable, or anything unforeseen: never an unhandled rejection (it would stop
        // the process); the client reconnects with backoff.
        .catch(() => {
          this.leave(socket);
          socket.close(1011, SERVICE_UNAVAILABLE);
        });
    };
    socket.on('close', () => {
      clearTimeout(timer);
      this.leave(socket);
    });
    socket.on('error', () => this.leave(socket));
    if (options.token) return settle(options.token);
    socket.once('message', (data: RawData, isBinary: boolean) => settle(isBinary ? null : authToken(data)));
  }

  publish(advance: Advance): void {
    this.deliveries = this.deliveries.then(() => this.deliver(advance)).catch(() => undefined);
  }

  /** After a rebuild every client refetches. */
  reset(): void {
    this.deliveries = this.deliveries
      .then(() => {
        this.history.length = 0;
        for (const socket of this.sessions.keys()) this.send(socket, { position: null, resync: true });
      })
      .catch(() => undefined);
  }

  /**
   * Checks again the sessions of one account, now: called where this instance
   * ends sessions (logout, password change) so their sockets close at once.
   * `sparedToken`: the password change's own session, whose browser is about
   * to switch to the fresh token it answers (and reconnect with it): closing
   * its socket first would read as "session expired" there. The periodic check
   * still ends it if it never does.
   */
  recheckUser(userId: string, sparedToken?: string): void {
    for (const [socket, session] of this.sessions) {
      if (session.principal.id === userId && session.token !== sparedToken) void this.recheck(socket, session);
    }
  }

  /** Checks every open session again (the periodic sweep; tests call it). */
  async recheckAll(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      // One at a time: a sweep is background work and must not take the pool from requests.
      for (const [socket, session] of [...this.sessions]) await this.recheck(socket, session);
    } finally {
      this.sweeping = false;
    }
  }

  closeAll(): void {
    this.stopSweep();
    for (const socket of [...this.sessions.keys(), ...this.pending]) socket.close(1001, 'arrêt du serveur');
    this.sessions.clear();
    this.pending.clear();
  }

  private join(socket: WebSocket, session: LiveSession, since: string | null): void {
    this.sessions.set(socket, session);
    this.startSweep();
    if (since !== null) this.replay(socket, session, since);
  }

  private leave(socket: WebSocket): void {
    this.pending.delete(socket);
    this.sessions.delete(socket);
    if (this.sessions.size === 0) this.stopSweep();
  }

  /** The session is over (or never began): the client stops reconnecting and goes to the login. */
  private end(socket: WebSocket): void {
    this.leave(socket);
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(LIVE_SESSION_ENDED_CLOSE_CODE, SESSION_EXPIRED);
  }

  private async recheck(socket: WebSocket, session: LiveSession): Promise<void> {
    if (!this.access) return;
    try {
      const principal = await this.access.principalOf(session.token);
      // Role, agency and permissions may have changed: the next messages follow them.
      if (this.sessions.get(socket) === session) session.principal = principal;
    } catch (error) {
      // Anything but a refusal (Postgres unreachable) keeps the socket: the next check decides.
      if (error instanceof UnauthorizedError && this.sessions.get(socket) === session) this.end(socket);
    }
  }

  private async deliver(advance: Advance): Promise<void> {
    let scopes: ReadonlyMap<string, ChangedIdScope> | null = null;
    if (!advance.truncated && advance.ids.length > 0 && this.access) {
      try {
        scopes = await this.access.scopesOf(advance.ids);
      } catch {
        // Unknown scope: restricted sockets get `resync` (they refetch through the scoped API), never the ids.
        scopes = null;
      }
    }
    const stored: StoredAdvance = { ...advance, scopes };
    this.history.push(stored);
    if (this.history.length > this.historySize) this.history.splice(0, this.history.length - this.historySize);

    // An account this batch changed (deleted, moved to another agency, télésurveillance agencies)
    // is checked before it hears about the batch.
    const changed = new Set(advance.ids);
    const touched = [...this.sessions].filter(([, session]) => changed.has(session.principal.id));
    await Promise.all(touched.map(([socket, session]) => this.recheck(socket, session)));

    for (const [socket, session] of this.sessions) {
      const message = messageFor(session.principal, [stored]);
      if (message) this.send(socket, message);
    }
  }

  private replay(socket: WebSocket, session: LiveSession, sealedSince: string): void {
    const since = this.seal.open(sealedSince);
    try {
      if (since === null) throw new Error('not a sealed position');
      this.compare(since, since);
    } catch {
      // Not a position this server ever gave (the client sent it): it must refetch everything.
      return this.send(socket, { position: this.history[this.history.length - 1]?.position ?? null, resync: true });
    }
    const oldest = this.history[0];
    // Only replay when the history surely covers everything after `since`.
    if (!oldest || this.compare(oldest.position, since) > 0) {
      const newest = this.history[this.history.length - 1];
      if (newest && this.compare(newest.position, since) > 0) this.send(socket, { position: newest.position, resync: true });
      else if (!newest) this.send(socket, { position: null, resync: true });
      return;
    }
    const missed = this.history.filter((advance) => this.compare(advance.position, since) > 0);
    const message = messageFor(session.principal, missed);
    if (message) this.send(socket, message);
  }

  /** A position as the API may tell it to a client (read-your-writes' 202): sealed, as on the live socket. */
  sealPosition(position: Position): string {
    return this.seal.seal(position);
  }

  /** Out with the position sealed: each socket gets its own token, so even equal positions differ on the wire. */
  private send(socket: WebSocket, message: LiveMessage): void {
    sendText(socket, JSON.stringify({ ...message, position: message.position === null ? null : this.seal.seal(message.position) }));
  }

  private startSweep(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => void this.recheckAll(), this.timing.recheckMs);
    this.sweepTimer.unref?.();
  }

  private stopSweep(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }
}

/** What one user may be told of these advances (in order); null when nothing. */
function messageFor(principal: Principal, advances: readonly StoredAdvance[]): LiveMessage | null {
  const last = advances[advances.length - 1];
  if (!last) return null;
  const ids = new Set<string>();
  for (const advance of advances) {
    if (advance.truncated) return { position: last.position, resync: true };
    if (advance.ids.length === 0) continue;
    const { scopes } = advance;
    if (scopes === null) {
      if (principal.role !== 'admin_plus') return { position: last.position, resync: true };
      for (const id of advance.ids) ids.add(id);
      continue;
    }
    for (const id of advance.ids) {
      const scope = scopes.get(id);
      if (mayHear(principal, id, scope)) ids.add(streamName(id, scope));
    }
  }
  return ids.size > 0 ? { position: last.position, streams: [...ids] } : null;
}

/**
 * What the browser is told: `<kind>-<id>` (`ticket-…`, `client-…`), the stream
 * category its invalidators refresh (web/src/app/live-invalidators.ts), so a
 * ticket's change refetches the ticket lists and that ticket, not every query
 * on screen. An id of unknown kind goes out bare: the browser refetches all.
 */
function streamName(id: string, scope: ChangedIdScope | undefined): string {
  return scope ? `${scope.kind}-${id}` : id;
}

/** The token of a `{ type: 'auth', token }` message; null for anything else. */
function authToken(data: RawData): string | null {
  try {
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    const parsed = liveAuthMessageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.token : null;
  } catch {
    return null;
  }
}

function sendText(socket: WebSocket, text: string): void {
  if (socket.readyState === socket.OPEN) socket.send(text);
}

/** Every projected batch the watcher sees goes out to the browsers. */
export function connectLiveHub(watcher: { on(event: 'advanced', listener: (advance: Advance) => void): unknown; on(event: 'reset', listener: () => void): unknown }, live: LiveHub): void {
  watcher.on('advanced', (advance) => live.publish(advance));
  watcher.on('reset', () => live.reset());
}
