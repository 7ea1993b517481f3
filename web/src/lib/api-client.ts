import { IDEMPOTENCY_KEY_HEADER, ROUTES_WITHOUT_IDEMPOTENCY } from '@fsm/contracts';
import { clearSession, getToken } from './session';
import { notifyReadModelsLate } from './read-models-late';

/**
 * The one way the web app talks to `/api`. It attaches the bearer token, parses
 * the answer and turns failures into typed errors. It decides nothing about what
 * the screen shows, except for the session rule of spec §7: 401/403 end the
 * session. A network failure never does (docs/architecture.md, "The web
 * client's session"): spec §7 asks for a logout there, but a logout throws away
 * what the user typed, and spec §8 has a message for it instead.
 */

const SESSION_EXPIRED_MESSAGE = 'Session expirée';

/** The server refused the token (401/403); the session has been cleared. */
export class SessionExpiredError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(SESSION_EXPIRED_MESSAGE);
    this.name = 'SessionExpiredError';
    this.status = status;
  }
}

/** Any other non-2xx answer. `message` is the server's `{ error }` when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  /** The server's own `{ error }` text, if any: screens show it, else their fallback. */
  readonly serverMessage: string | undefined;
  readonly body: unknown;
  constructor(status: number, serverMessage: string | undefined, body: unknown) {
    super(serverMessage ?? `Erreur HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

/** What a screen without a network message of its own shows (spec §8 'Erreur réseau.'). */
const NETWORK_ERROR_MESSAGE = 'Erreur réseau.';

/**
 * The request never got a whole answer (offline, DNS, server down, CORS, the
 * connection cut while the answer was read, a page unloading mid-request).
 * The session stays: the screen says so and keeps what the user typed.
 */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(NETWORK_ERROR_MESSAGE, { cause });
    this.name = 'NetworkError';
  }
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart (uploads); the browser sets the boundary. */
  formData?: FormData;
  /** Appended to the path; null/undefined/'' values are left out. */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** false for the two anonymous calls (login, public ticket). Default true. */
  auth?: boolean;
  /**
   * A 403 is the answer's own refusal, not an ended session: it comes back as
   * an ApiError and the session stays. Only for the calls the spec says show
   * a message on 403 (agency saves, management §6 and §8).
   */
  forbiddenIsError?: boolean;
  /** Resolve with the raw Response when it is OK (binary answers: PDFs), instead of its parsed body. */
  raw?: boolean;
  /**
   * The version of the fiche an edit was made on, sent as `If-Match`: the
   * server refuses the edit (409) if the fiche changed since. For the edits
   * whose body cannot carry `version` (DELETE, lists).
   */
  ifMatch?: number | undefined;
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const qs = params.toString();
  if (!qs) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function serverErrorText(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === 'string' && error.trim()) return error;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Commands carry their own id (docs/architecture.md, "Commands carry their own id")

/**
 * Idempotency keys of the submissions that never got an answer, by what they
 * sent. A submission is what the user sent once: a retry of it (the same
 * method, path and body, after a network failure or while it is still in
 * flight) goes with the same key, so the server runs it once and replays its
 * answer; anything that got an answer frees its key, and the next submission,
 * even with the same values, is a new one.
 */
const unansweredKeys = new Map<string, string>();
const MAX_UNANSWERED_KEYS = 50;

function submissionIdentity(method: string, url: string, json: unknown, formData: FormData | undefined): string {
  const body = formData
    ? [...formData.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : `file:${value.name}:${value.size}:${value.type}:${value.lastModified}`])
    : (json ?? null);
  return JSON.stringify([method, url, body]);
}

/** A v4 UUID; `crypto.randomUUID` exists only on https or localhost, the app may be served over plain http on a LAN. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function idempotencyKeyFor(identity: string): string {
  const known = unansweredKeys.get(identity);
  if (known) return known;
  const key = newIdempotencyKey();
  unansweredKeys.set(identity, key);
  if (unansweredKeys.size > MAX_UNANSWERED_KEYS) unansweredKeys.delete(unansweredKeys.keys().next().value!);
  return key;
}

/**
 * Performs the request and resolves with the parsed body. The caller states the
 * expected type; validate with the contracts' zod schema where the shape matters.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', json, formData, query, signal, auth = true, forbiddenIsError = false, raw = false, ifMatch } = options;
  const token = auth ? getToken() : null;

  const headers = new Headers({ Accept: 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (ifMatch !== undefined) headers.set('If-Match', `"${ifMatch}"`);
  let body: BodyInit | undefined;
  if (formData) {
    body = formData;
  } else if (json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(json);
  }

  const url = withQuery(path, query);
  // Every command goes with an id; a retry of the same submission with the same one. Not the
  // session calls: their bodies hold passwords, which this would keep in memory.
  const identity = method === 'GET' || ROUTES_WITHOUT_IDEMPOTENCY.includes(path) ? null : submissionIdentity(method, url, json, formData);
  if (identity !== null) headers.set(IDEMPOTENCY_KEY_HEADER, idempotencyKeyFor(identity));

  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, signal });
  } catch (error) {
    // A cancelled query is not a network failure; let react-query see the abort.
    if (signal?.aborted) throw error;
    throw new NetworkError(error);
  }
  if (identity !== null) unansweredKeys.delete(identity);
  // Recorded, but reads do not show it yet (projections late): the signed-in screens say
  // so, and the live update for the changed stream refetches what shows it. (An anonymous
  // caller — the public form — reads nothing back.)
  if (response.status === 202 && identity !== null && token) notifyReadModelsLate();

  if (response.ok && raw) return response as T;
  let parsed: unknown;
  try {
    parsed = await readBody(response);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new NetworkError(error);
  }
  if (response.ok) return parsed as T;

  if (token && (response.status === 401 || (response.status === 403 && !forbiddenIsError))) {
    clearSession('expired');
    throw new SessionExpiredError(response.status);
  }
  throw new ApiError(response.status, serverErrorText(parsed), parsed);
}

export const apiClient = {
  get: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'json' | 'formData'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, json?: unknown, options?: Omit<RequestOptions, 'method' | 'json'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', json }),
  patch: <T = unknown>(path: string, json?: unknown, options?: Omit<RequestOptions, 'method' | 'json'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', json }),
  put: <T = unknown>(path: string, json?: unknown, options?: Omit<RequestOptions, 'method' | 'json'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', json }),
  delete: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'json' | 'formData'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/**
 * The text a screen shows for a failed call: the server's words, else its own
 * fallback; a call that never got its answer reads 'Erreur réseau.', since the
 * screen's fallback ('Erreur serveur', 'Erreur lors de …') would blame the server
 * for a dropped connection. Screens with a network message of their own in
 * spec §8 test for NetworkError first.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  if (error instanceof NetworkError) return NETWORK_ERROR_MESSAGE;
  return fallback;
}
