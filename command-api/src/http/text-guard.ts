import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { ValidationError } from '@fsm/contracts';

export const NUL_REFUSED = 'Caractère non autorisé dans la requête.';
export const BADLY_ENCODED = 'Texte mal encodé: la requête doit être en UTF-8 valide.';
export const TOO_DEEP = 'Requête trop imbriquée.';
const INVALID_JSON = 'Corps de requête JSON invalide.';

/**
 * The deepest body a client of ours sends is about four levels (a permission
 * set in a user, opening hours in an agency). Deeper is refused before any
 * recursive walk (prototype-key scan, zod, the text walk below) could
 * overflow the stack and answer 500.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * What is wrong with the text of a request, or null. Refused everywhere, in
 * keys as in values, because no field of ours has a use for them and each would
 * fail later as a 500 or be stored as something else than what was sent:
 *  - U+0000: Postgres text and jsonb cannot hold it;
 *  - a lone UTF-16 surrogate (`"\ud800"` in JSON): jsonb refuses it;
 *  - U+FFFD, the replacement character: what a decoder leaves of bytes that were
 *    not UTF-8 (multipart fields, query strings), so "invalid UTF-8" is refused
 *    instead of being stored as '�'.
 */
export function textProblem(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return stringProblem(value);
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_BODY_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = textProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const problem = stringProblem(key) ?? textProblem(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function stringProblem(text: string): string | null {
  if (text.includes('\u0000') || LONE_SURROGATE.test(text)) return NUL_REFUSED;
  if (text.includes('\uFFFD')) return BADLY_ENCODED;
  return null;
}

/** The nesting depth of a JSON text, counted without parsing it (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return deepest;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Replaces Fastify's JSON body parser: bytes that are not UTF-8 are refused
 * (Fastify's parser decodes them to U+FFFD and the '�' was stored), nesting
 * deeper than MAX_BODY_DEPTH is refused before parsing (the prototype-key scan
 * recursed on it until the stack overflowed: 500), and `__proto__` /
 * `constructor.prototype` keys are refused as before.
 */
function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      return done(new ValidationError(BADLY_ENCODED), undefined);
    }
    if (text.trim() === '') return done(new ValidationError(INVALID_JSON), undefined);
    if (jsonDepth(text) > MAX_BODY_DEPTH) return done(new ValidationError(TOO_DEEP), undefined);
    try {
      return done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      return done(new ValidationError(INVALID_JSON), undefined);
    }
  });
}

/**
 * Every request's text (body, query string, path parameters) is checked by
 * textProblem before validation: refused with a French 400, before anything
 * is read or written.
 */
export function registerTextGuard(app: FastifyInstance): void {
  registerJsonBodyParser(app);
  app.addHook('preValidation', async (request) => {
    const problem = textProblem(request.body) ?? textProblem(request.query) ?? textProblem(request.params);
    if (problem) throw new ValidationError(problem);
  });
}
