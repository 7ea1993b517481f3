import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  applyLiveMessage,
  connectLiveUpdates,
  createInvalidationBatcher,
  keysToInvalidate,
  parseLiveMessage,
  type LiveMessage,
  type LiveSocket,
  type StreamInvalidators,
} from './live-updates';

const invalidators: StreamInvalidators = {
  ticket: (ids) => [['tickets', 'list'], ...ids.map((id) => ['tickets', 'detail', id])],
  client: () => [['clients']],
};

describe('parseLiveMessage', () => {
  it('reads position, streams and resync', () => {
    expect(parseLiveMessage('{"position":"12","streams":["ticket-a"],"resync":false}')).toEqual({
      position: '12',
      streams: ['ticket-a'],
      resync: false,
    });
  });

  it('accepts numeric positions and missing fields', () => {
    expect(parseLiveMessage({ position: 7 })).toEqual({ position: '7', streams: [], resync: false });
    expect(parseLiveMessage({ position: '8', resync: true })).toEqual({ position: '8', streams: [], resync: true });
  });

  it('accepts a null position (resync after a rebuild)', () => {
    expect(parseLiveMessage({ position: null, resync: true })).toEqual({ position: null, streams: [], resync: true });
  });

  it('ignores what it cannot read', () => {
    expect(parseLiveMessage('not json')).toBeNull();
    expect(parseLiveMessage('{"streams":["ticket-a"]}')).toBeNull();
    expect(parseLiveMessage(null)).toBeNull();
    expect(parseLiveMessage({ position: '1', streams: ['ticket-a', 3] })?.streams).toEqual(['ticket-a']);
  });
});

describe('keysToInvalidate', () => {
  const message = (streams: string[], resync = false): LiveMessage => ({ position: '1', streams, resync });

  it('asks each category once, with the ids of its changed streams', () => {
    const ticket = vi.fn(invalidators.ticket);
    const keys = keysToInvalidate(message(['ticket-a', 'client-c', 'ticket-b', 'ticket-a']), {
      ...invalidators,
      ticket,
    });
    expect(ticket).toHaveBeenCalledTimes(1);
    expect(ticket).toHaveBeenCalledWith(['a', 'b']);
    expect(keys).toEqual([['tickets', 'list'], ['tickets', 'detail', 'a'], ['tickets', 'detail', 'b'], ['clients']]);
  });

  it('keeps the whole id after the first dash (uuids have dashes)', () => {
    const keys = keysToInvalidate(message(['ticket-0b8e-4c1a']), invalidators);
    expect(keys).toContainEqual(['tickets', 'detail', '0b8e-4c1a']);
  });

  it("falls back to 'all' for a stream of an unknown category", () => {
    expect(keysToInvalidate(message(['client-1', 'audit-1']), invalidators)).toBe('all');
    expect(keysToInvalidate(message(['constructor-1']), invalidators)).toBe('all');
  });

  it('invalidates nothing for a message without streams', () => {
    expect(keysToInvalidate(message([]), invalidators)).toEqual([]);
  });

  it("answers 'all' on resync", () => {
    expect(keysToInvalidate(message(['ticket-a'], true), invalidators)).toBe('all');
  });
});

describe('applyLiveMessage', () => {
  it('invalidates the matching queries only', () => {
    const queryClient = new QueryClient();
    const spy = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    applyLiveMessage(queryClient, { position: '1', streams: ['client-9'], resync: false }, invalidators);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy).toHaveBeenCalledWith({ queryKey: ['clients'] });
  });

  it('invalidates everything on resync', () => {
    const queryClient = new QueryClient();
    const spy = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    applyLiveMessage(queryClient, { position: '1', streams: [], resync: true }, invalidators);
    expect(spy).toHaveBeenCalledWith();
  });

  it('marks matching cached data stale and leaves the rest', () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    queryClient.setQueryData(['tickets', 'detail', 'a'], { id: 'a' });
    queryClient.setQueryData(['clients'], []);
    applyLiveMessage(queryClient, { position: '1', streams: ['ticket-a'], resync: false }, invalidators);
    expect(queryClient.getQueryState(['tickets', 'detail', 'a'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['clients'])?.isInvalidated).toBe(false);
  });
});

describe('createInvalidationBatcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const timing = { quietMs: 300, maxWaitMs: 2_000 };

  it('merges a burst of messages into one invalidation of each key, once the burst is over', () => {
    const apply = vi.fn();
    const batcher = createInvalidationBatcher(apply, timing);
    for (let i = 0; i < 10; i++) {
      batcher.push([['qrcodes', 'list'], ['qrcodes', 'unused-count']]);
      vi.advanceTimersByTime(100);
    }
    expect(apply).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    expect(apply).toHaveBeenCalledTimes(1);
    expect(apply).toHaveBeenCalledWith([['qrcodes', 'list'], ['qrcodes', 'unused-count']]);
  });

  it('still refreshes during a long burst, at most once per maxWaitMs', () => {
    const apply = vi.fn();
    const batcher = createInvalidationBatcher(apply, timing);
    // 100 messages, one every 60 ms: 6 s of events, as a batch of 100 QR codes.
    for (let i = 0; i < 100; i++) {
      batcher.push([['qrcodes', 'list']]);
      vi.advanceTimersByTime(60);
    }
    vi.advanceTimersByTime(300);
    // Twice at the 2-s deadlines, once when the burst ends: 3 refetches instead of 100.
    expect(apply).toHaveBeenCalledTimes(3);
  });

  it("a resync in the burst makes it 'all'; an empty message schedules nothing; cancel drops what is pending", () => {
    const apply = vi.fn();
    const batcher = createInvalidationBatcher(apply, timing);
    batcher.push([]);
    vi.advanceTimersByTime(5_000);
    expect(apply).not.toHaveBeenCalled();
    batcher.push([['clients']]);
    batcher.push('all');
    batcher.push([['tickets']]);
    vi.advanceTimersByTime(300);
    expect(apply).toHaveBeenCalledWith('all');
    batcher.push([['clients']]);
    batcher.cancel();
    vi.advanceTimersByTime(5_000);
    expect(apply).toHaveBeenCalledTimes(1);
  });
});

class FakeSocket implements LiveSocket {
  onopen: LiveSocket['onopen'] = null;
  onmessage: LiveSocket['onmessage'] = null;
  onclose: LiveSocket['onclose'] = null;
  onerror: LiveSocket['onerror'] = null;
  closed = false;
  readonly sent: string[] = [];
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  receive(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) } as MessageEvent);
  }
  drop(code = 1006) {
    this.onclose?.({ code } as CloseEvent);
  }
}

describe('connectLiveUpdates', () => {
  let sockets: FakeSocket[];
  const last = () => {
    const socket = sockets[sockets.length - 1];
    if (!socket) throw new Error('no socket opened');
    return socket;
  };

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function connect(onMessage = vi.fn(), onStatus = vi.fn(), onSessionEnded = vi.fn()) {
    const connection = connectLiveUpdates({
      token: 'tok en',
      onMessage,
      onStatus,
      onSessionEnded,
      url: (since) => `/ws${since ? `?since=${since}` : ''}`,
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      backoffMs: (attempt) => 1000 * 2 ** attempt,
    });
    return { connection, onMessage, onStatus, onSessionEnded };
  }

  it('authenticates with its first message: the session token is never in the socket’s URL', () => {
    const origin = `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}`;
    const urls: string[] = [];
    const connection = connectLiveUpdates({
      token: 'secret.jwt.token',
      onMessage: vi.fn(),
      createSocket: (url) => {
        urls.push(url);
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      backoffMs: () => 1000,
    });
    expect(urls).toEqual([`${origin}/ws`]);
    expect(last().sent).toEqual([]);
    last().open();
    expect(last().sent.map((data) => JSON.parse(data))).toEqual([{ type: 'auth', token: 'secret.jwt.token' }]);
    last().receive({ position: '7', streams: [] });
    last().drop();
    vi.advanceTimersByTime(1000);
    expect(urls[1]).toBe(`${origin}/ws?since=7`);
    last().open();
    expect(last().sent).toHaveLength(1);
    expect(urls.join()).not.toContain('secret');
    connection.close();
  });

  it('ends the session when the server closes with 4401, not on any other close', () => {
    const dropped = connect();
    last().open();
    last().drop(1006);
    last().drop(1008);
    expect(dropped.onSessionEnded).not.toHaveBeenCalled();
    dropped.connection.close();

    const ended = connect();
    last().open();
    last().drop(4401);
    expect(ended.onSessionEnded).toHaveBeenCalledTimes(1);
    ended.connection.close();
  });

  it('reports its state: connecting, open, reconnecting after a drop, open again, stopped when refused', () => {
    const { connection, onStatus } = connect();
    expect(onStatus.mock.calls.map(([s]) => s)).toEqual(['connecting']);
    last().open();
    last().drop();
    vi.advanceTimersByTime(1000);
    last().open();
    last().drop(4401);
    expect(onStatus.mock.calls.map(([s]) => s)).toEqual(['connecting', 'open', 'reconnecting', 'open', 'stopped']);
    connection.close();
  });

  it('passes each message on and remembers its position', () => {
    const { connection, onMessage } = connect();
    last().open();
    last().receive({ position: '41', streams: ['ticket-a'] });
    last().receive('garbage');
    expect(onMessage).toHaveBeenCalledTimes(1);
    expect(onMessage).toHaveBeenCalledWith({ position: '41', streams: ['ticket-a'], resync: false });
    expect(connection.lastPosition()).toBe('41');
    last().receive({ position: null, resync: true });
    expect(onMessage).toHaveBeenLastCalledWith({ position: null, streams: [], resync: true });
    expect(connection.lastPosition()).toBe('41');
    connection.close();
  });

  it('reconnects with backoff, sending the last position it saw', () => {
    const { connection } = connect();
    expect(last().url).toBe('/ws');
    last().open();
    last().receive({ position: '41' });

    last().drop();
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    expect(last().url).toBe('/ws?since=41');

    // Fails again before opening: the wait doubles.
    last().drop();
    vi.advanceTimersByTime(1999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);

    // A successful open resets the backoff.
    last().open();
    last().drop();
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(4);
    connection.close();
  });

  it('stops when the server refuses the token', () => {
    const { connection } = connect();
    last().drop(4401);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    connection.close();
  });

  it('close() closes the socket and cancels any pending reconnect', () => {
    const { connection } = connect();
    const first = last();
    connection.close();
    expect(first.closed).toBe(true);

    const again = connect();
    last().drop();
    again.connection.close();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(2);
  });

  it('reconnects at once when the browser comes back online', () => {
    const { connection } = connect();
    last().drop();
    window.dispatchEvent(new Event('online'));
    expect(sockets).toHaveLength(2);
    connection.close();
  });
});
