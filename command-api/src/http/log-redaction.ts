import { unescape as unescapeQuery } from 'node:querystring';
import type { FastifyBaseLogger } from 'fastify';

/*
 * No credential in a log line (issue 17). Logs are read by more people than
 * the accounts they mention, copied into tickets and kept for months: a token
 * found there must not open anything. Fastify logs every request's URL
 * (`req.url`), and a download link, a photo link (its `sig`) or an older
 * live-update client carries a credential in it; a few other lines log a URL
 * or a path under their own key. Those values keep their shape with every
 * credential masked (redactUrl: by parameter name, whatever the separator,
 * and by shape anywhere, issue 32 item 12); authorization and cookie headers,
 * wherever they appear, are masked whole.
 */

const REDACTED = '[masqué]';

/** Log keys that may hold a URL with its query string (Fastify's request, @fastify/websocket's refusals). */
const URL_PATHS = ['req.url', 'url', 'path'];
/** Log keys that hold a credential whole. */
const SECRET_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'cookie',
  'token',
  '*.token',
];
const URL_KEYS = new Set(URL_PATHS.map((path) => path.split('.').at(-1)));

/**
 * Parameter names whose value is a credential, as the server's parser reads
 * them (`%74oken` is `token`): session and download tokens, file-link
 * signatures (`sig`), QR keys, passwords.
 */
const SECRET_NAME = /token|sig|secret|passw|pwd|auth|jwt|key|session|credential/i;

/** `name=value` anywhere in a URL: after `?`, `&`, `;` (matrix or old-style separators), `/` or `#`. */
const NAMED_VALUE = /(^|[?&;/#])([^?&;/#=]*)=([^&;#]*)/g;

/**
 * Runs that may hold a token: URL-safe characters, dots (JWT), `+` and
 * percent escapes (an encoded or doubly encoded token).
 */
const CANDIDATE_RUN = /(?:[A-Za-z0-9_~.+-]|%[0-9A-Fa-f]{2})+/g;
/** A piece of a decoded run made of base64 / base64url / hex characters. */
const BASE64_PIECE = /[A-Za-z0-9_+/-]+/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Words joined by dashes or underscores, each all letters or all digits: `rapport-LYO-2026-00001-00000000`. */
const READABLE = /^(?:[A-Za-z]+|[0-9]+)(?:[-_](?:[A-Za-z]+|[0-9]+))*$/;
/** Below this length a run is not taken for a token by its shape alone (its name may still say so). */
const TOKEN_MIN_LENGTH = 24;

/** `text` percent-decoded (and `+` as a space, as query parsers do) until it no longer changes, at most 3 times. */
function decodedFully(text: string): string {
  let current = text;
  for (let i = 0; i < 3; i += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current.replace(/\+/g, ' '));
    } catch {
      next = unescapeQuery(current.replace(/\+/g, ' '));
    }
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Does this (decoded) text look like a credential: a JWT, or a long random-looking base64/hex string? */
function isTokenShaped(decoded: string): boolean {
  if (/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+/.test(decoded)) return true;
  const spaced = decoded.replace(/ /g, '+');
  for (const piece of spaced.match(BASE64_PIECE) ?? []) {
    if (piece.length < TOKEN_MIN_LENGTH) continue;
    if (UUID.test(piece) || READABLE.test(piece)) continue;
    return true;
  }
  return false;
}

/**
 * `url` with every credential masked, whatever the syntax that carries it:
 * the value of any `name=value` whose name says token, signature or key
 * (after `?`, `&`, `;`, `/` or `#`, the name decoded as the server would),
 * and any token-shaped run (JWT, long base64url or hex, encoded or not)
 * anywhere else, path segments included. Ids (UUIDs) and readable names
 * (`rapport-LYO-2026-00001-00000000.pdf`) are kept, so a line still says what
 * was asked.
 */
export function redactUrl(url: string): string {
  const named = url.replace(NAMED_VALUE, (match, separator: string, name: string, value: string) =>
    value.length > 0 && SECRET_NAME.test(decodedFully(name)) ? `${separator}${name}=${REDACTED}` : match,
  );
  return named.replace(CANDIDATE_RUN, (run) => (isTokenShaped(decodedFully(run)) ? REDACTED : run));
}

function censor(value: unknown, path: string[]): unknown {
  if (!URL_KEYS.has(path[path.length - 1])) return REDACTED;
  return typeof value === 'string' ? redactUrl(value) : value;
}

/** The app's logger with credentials masked in every line it and its children write. */
export function withLogRedaction(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child({}, { redact: { paths: [...URL_PATHS, ...SECRET_PATHS], censor } });
}
