import { unescape as unescapeQuery } from 'node:querystring';
import type { FastifyBaseLogger } from 'fastify';

/*
 * No credential in a log line (issue 17). Logs are read by more people than
 * the accounts they mention, copied into tickets and kept for months: a token
 * found there must not open anything. Fastify logs every request's URL
 * (`req.url`), and a download link or an older live-update client carries its
 * token in the query; a few other lines log a URL or a path under their own
 * key. Those values keep their shape with every `*token*` query value masked;
 * authorization and cookie headers, wherever they appear, are masked whole.
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

/** A query parameter name as the server's parser reads it (`%74oken` is `token`). */
function decodedName(name: string): string {
  return unescapeQuery(name.replace(/\+/g, ' '));
}

/** `url` with the value of every query parameter whose name contains "token" masked. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const hash = url.indexOf('#', start);
  const end = hash < 0 ? url.length : hash;
  const query = url
    .slice(start + 1, end)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals < 0 || !/token/i.test(decodedName(part.slice(0, equals)))) return part;
      return `${part.slice(0, equals)}=${REDACTED}`;
    })
    .join('&');
  return `${url.slice(0, start + 1)}${query}${url.slice(end)}`;
}

function censor(value: unknown, path: string[]): unknown {
  if (!URL_KEYS.has(path[path.length - 1])) return REDACTED;
  return typeof value === 'string' ? redactUrl(value) : value;
}

/** The app's logger with credentials masked in every line it and its children write. */
export function withLogRedaction(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child({}, { redact: { paths: [...URL_PATHS, ...SECRET_PATHS], censor } });
}
