import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { LIVE_SESSION_ENDED_CLOSE_CODE, type LiveAuthMessage } from '@fsm/contracts';
import { clearSession, getToken } from './session';

/**
 * Live updates over a WebSocket (ARCHITECTURE "Projections, jobs and live
 * updates"). After each projected batch the server pushes
 * `{ position, streams?, resync? }`; the client invalidates the queries that
 * show those streams, so lists update in place. On reconnect it sends the last
 * position it saw (`?since=`) and the server replays or answers `resync`, in
 * which case everything is refetched.
 *
 * The session token never goes in the socket's URL (URLs end up in access
 * logs): it is the socket's first message. The server closes the socket with
 * 4401 when the session ends (logout elsewhere, password change, account
 * deleted): the session ends here too, as for an HTTP 401.
 */

export interface LiveMessage {
  /**
   * Opaque projection position; only ever sent back as `since`. null when the
   * server has none to give (e.g. its `resync` after a read-model rebuild).
   */
  position: string | null;
  /** Changed stream names, e.g. `ticket-<uuid>`. */
  streams: string[];
  resync: boolean;
}

/**
 * Which query keys to invalidate for a stream category (the part of the stream
 * name before the first `-`), given the ids of the changed streams.
 */
export type StreamInvalidators = Readonly<Record<string, (ids: string[]) => QueryKey[]>>;

export function parseLiveMessage(raw: unknown): LiveMessage | null {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const position = typeof v.position === 'string' || typeof v.position === 'number' ? String(v.position) : v.position === null ? null : undefined;
  if (position === undefined) return null;
  const streams = Array.isArray(v.streams) ? v.streams.filter((s): s is string => typeof s === 'string') : [];
  return { position, streams, resync: v.resync === true };
}

export function splitStreamName(stream: string): { category: string; id: string | null } {
  const dash = stream.indexOf('-');
  if (dash < 0) return { category: stream, id: null };
  return { category: stream.slice(0, dash), id: stream.slice(dash + 1) };
}

/**
 * The keys a message invalidates, or 'all'. 'all' on a resync, and also when a
 * changed stream belongs to no known category: refetching too much is slower,
 * showing stale data is wrong.
 */
export function keysToInvalidate(message: LiveMessage, invalidators: StreamInvalidators): QueryKey[] | 'all' {
  if (message.resync) return 'all';
  const idsByCategory = new Map<string, string[]>();
  for (const stream of message.streams) {
    const { category, id } = splitStreamName(stream);
    const ids = idsByCategory.get(category) ?? [];
    if (id !== null && !ids.includes(id)) ids.push(id);
    idsByCategory.set(category, ids);
  }
  const keys: QueryKey[] = [];
  for (const [category, ids] of idsByCategory) {
    const invalidate = Object.hasOwn(invalidators, category) ? invalidators[category] : undefined;
    if (!invalidate) return 'all';
    keys.push(...invalidate(ids));
  }
  return keys;
}

export function applyLiveMessage(queryClient: QueryClient, message: LiveMessage, invalidators: StreamInvalidators): void {
  invalidateKeys(queryClient, keysToInvalidate(message, invalidators));
}

function invalidateKeys(queryClient: QueryClient, keys: QueryKey[] | 'all'): void {
  if (keys === 'all') {
    void queryClient.invalidateQueries();
    return;
  }
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

export interface LiveBatchTiming {
  /** A burst ends after this long without a message. */
  quietMs: number;
  /** During a long burst, the screen still moves at least this often. */
  maxWaitMs: number;
}

export const LIVE_BATCH_TIMING: LiveBatchTiming = { quietMs: 300, maxWaitMs: 2_000 };

/**
 * Merges the invalidations of a burst of messages into one. A batch of 100 QR
 * codes is 100 streams announced over a few seconds; each invalidation
 * refetched the active lists and cancelled the refetch already in flight, so
 * the list was fetched once per message (issue 18, item 7: 11 times in 6 s).
 */
export function createInvalidationBatcher(apply: (keys: QueryKey[] | 'all') => void, timing: LiveBatchTiming = LIVE_BATCH_TIMING) {
  let pending: Map<string, QueryKey> | 'all' | null = null;
  let quiet: ReturnType<typeof setTimeout> | null = null;
  let deadline: ReturnType<typeof setTimeout> | null = null;
  const clear = () => {
    if (quiet !== null) clearTimeout(quiet);
    if (deadline !== null) clearTimeout(deadline);
    quiet = deadline = null;
  };
  const flush = () => {
    clear();
    const keys = pending;
    pending = null;
    if (keys === null) return;
    apply(keys === 'all' ? 'all' : [...keys.values()]);
  };
  return {
    push(keys: QueryKey[] | 'all') {
      if (keys !== 'all' && keys.length === 0) return;
      if (keys === 'all' || pending === 'all') pending = 'all';
      else {
        pending ??= new Map();
        for (const key of keys) pending.set(JSON.stringify(key), key);
      }
      if (quiet !== null) clearTimeout(quiet);
      quiet = setTimeout(flush, timing.quietMs);
      deadline ??= setTimeout(flush, timing.maxWaitMs);
    },
    flush,
    /** Drops what is pending: the connection is gone with its screens. */
    cancel() {
      clear();
      pending = null;
    },
  };
}

/** The subset of WebSocket this client uses; lets tests pass a fake. */
export interface LiveSocket {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface LiveConnectionOptions {
  token: string;
  onMessage: (message: LiveMessage) => void;
  /** Builds the socket URL (never with the token); default `ws(s)://<host>/ws?since=…`. */
  url?: (since: string | null) => string;
  createSocket?: (url: string) => LiveSocket;
  /** Delay before reconnect attempt n (0-based). */
  backoffMs?: (attempt: number) => number;
  /** Told whenever the connection's state changes (for the "live updates off" indicator). */
  onStatus?: (status: LiveStatus) => void;
  /** The server ended the session (close code 4401): revoked, expired, account deleted. */
  onSessionEnded?: () => void;
}

/**
 * `connecting` before the first socket opens; `open` while connected;
 * `reconnecting` after a drop, while the backoff runs; `stopped` once the
 * server refused the token (no more attempts).
 */
export type LiveStatus = 'connecting' | 'open' | 'reconnecting' | 'stopped';

export interface LiveConnection {
  close(): void;
  lastPosition(): string | null;
}

/** Close codes after which reconnecting is pointless: the server refused the token. */
const UNAUTHORIZED_CLOSE_CODES = new Set([1008, LIVE_SESSION_ENDED_CLOSE_CODE, 4403]);

function defaultLiveUrl(since: string | null): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = since === null ? '' : `?${new URLSearchParams({ since }).toString()}`;
  return `${protocol}//${window.location.host}/ws${query}`;
}

/** 1 s, 2 s, 4 s … capped at 30 s, with jitter so clients do not reconnect in step. */
function defaultBackoffMs(attempt: number): number {
  const base = Math.min(30_000, 1000 * 2 ** attempt);
  return Math.round(base * (0.5 + Math.random() * 0.5));
}

export function connectLiveUpdates(options: LiveConnectionOptions): LiveConnection {
  const {
    token,
    onMessage,
    url = defaultLiveUrl,
    createSocket = (u: string) => new WebSocket(u),
    backoffMs = defaultBackoffMs,
    onStatus,
    onSessionEnded,
  } = options;

  let socket: LiveSocket | null = null;
  let since: string | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let status: LiveStatus | null = null;
  const setStatus = (next: LiveStatus) => {
    if (status === next) return;
    status = next;
    onStatus?.(next);
  };

  const scheduleReconnect = () => {
    if (stopped || timer !== null) return;
    setStatus('reconnecting');
    timer = setTimeout(() => {
      timer = null;
      open();
    }, backoffMs(attempt));
    attempt += 1;
  };

  const open = () => {
    if (stopped) return;
    let current: LiveSocket;
    try {
      current = createSocket(url(since));
    } catch {
      scheduleReconnect();
      return;
    }
    socket = current;
    current.onopen = () => {
      const auth: LiveAuthMessage = { type: 'auth', token };
      current.send(JSON.stringify(auth));
      attempt = 0;
      setStatus('open');
    };
    current.onmessage = (event) => {
      const message = parseLiveMessage(event.data);
      if (!message) return;
      if (message.position !== null) since = message.position;
      onMessage(message);
    };
    current.onerror = () => {
      // A close event always follows; reconnecting is decided there.
    };
    current.onclose = (event) => {
      if (socket === current) socket = null;
      if (UNAUTHORIZED_CLOSE_CODES.has(event.code)) {
        stopped = true;
        setStatus('stopped');
        if (event.code === LIVE_SESSION_ENDED_CLOSE_CODE) onSessionEnded?.();
        return;
      }
      scheduleReconnect();
    };
  };

  // Coming back online should not wait for the current backoff to expire.
  const onOnline = () => {
    if (stopped || socket) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    attempt = 0;
    open();
  };
  window.addEventListener('online', onOnline);

  setStatus('connecting');
  open();

  return {
    close() {
      stopped = true;
      window.removeEventListener('online', onOnline);
      if (timer !== null) clearTimeout(timer);
      timer = null;
      const current = socket;
      socket = null;
      if (current) {
        current.onclose = null;
        current.onmessage = null;
        current.close(1000, 'logout');
      }
    },
    lastPosition: () => since,
  };
}

/**
 * Keeps one live connection while signed in and turns its messages into query
 * invalidations. Mount it above the screens so it subscribes before they fetch.
 * After a drop, the reconnection refetches every active query: what changed
 * while the socket was down may predate what the server can replay.
 * Returns the connection's state, or `off` when there is none (signed out,
 * disabled, no WebSocket in this browser).
 */
export function useLiveUpdates(
  token: string | null,
  invalidators: StreamInvalidators,
  options: {
    enabled?: boolean;
    /**
     * Told the changed streams of each message (not of a resync), for caches
     * that refresh only what a change concerns instead of being invalidated
     * (the paged lists, app/live-invalidators.ts).
     */
    onStreams?: (streams: readonly string[]) => void;
  } = {},
): LiveStatus | 'off' {
  const queryClient = useQueryClient();
  const invalidatorsRef = useRef(invalidators);
  invalidatorsRef.current = invalidators;
  const onStreamsRef = useRef(options.onStreams);
  onStreamsRef.current = options.onStreams;
  const enabled = options.enabled ?? true;
  const supported = typeof WebSocket !== 'undefined';
  const [status, setStatus] = useState<LiveStatus | 'off'>('off');

  useEffect(() => {
    if (!token || !enabled || !supported) {
      setStatus('off');
      return;
    }
    let wasOpen = false;
    let dropped = false;
    const batcher = createInvalidationBatcher((keys) => invalidateKeys(queryClient, keys));
    const connection = connectLiveUpdates({
      token,
      onMessage: (message) => {
        batcher.push(keysToInvalidate(message, invalidatorsRef.current));
        if (!message.resync && message.streams.length > 0) onStreamsRef.current?.(message.streams);
      },
      // As for an HTTP 401 (spec §7): the guards send the user to /login with 'Session expirée'.
      // Unless the session moved on to another token meanwhile (a password change answers one).
      onSessionEnded: () => {
        if (getToken() === token) clearSession('expired');
      },
      onStatus: (next) => {
        if (next === 'open') {
          if (wasOpen && dropped) void queryClient.invalidateQueries();
          wasOpen = true;
          dropped = false;
        } else if (next === 'reconnecting') {
          dropped = true;
        }
        setStatus(next);
      },
    });
    return () => {
      batcher.cancel();
      connection.close();
      setStatus('off');
    };
  }, [token, enabled, supported, queryClient]);

  return status;
}
