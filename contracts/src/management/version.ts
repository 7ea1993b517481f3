import { z } from 'zod';
import { ValidationError } from '../errors.js';

/*
 * Optimistic concurrency of the management edits (docs/management-domain.md,
 * "Versions"). Every fiche the management screens list carries `version`: the
 * revision of its stream when it was last changed. An edit may say which
 * version it was made on, in the body (`version`, what the web sends) or as
 * `If-Match: "<version>"` (every verb, the only way for DELETE and for bodies
 * that are lists). A stale version answers 409 and changes nothing; an edit
 * that names none keeps working as before.
 */

export const VERSION_MESSAGES = {
  versionInvalid: 'La version doit être un nombre entier positif ou nul.',
  ifMatchInvalid: "L'en-tête If-Match doit contenir la version de la fiche, par exemple \"3\".",
  versionsDiffer: "La version de l'en-tête If-Match et celle du corps de la requête ne correspondent pas.",
} as const;

/** Stream revisions are Postgres ints; anything larger is no version we ever handed out. */
export const VERSION_MAX = 2_147_483_647;

/** `version` in an answer: the fiche's stream revision when it was last changed. */
export const entityVersionSchema = z.int().min(0).max(VERSION_MAX).describe('Version de la fiche, à renvoyer avec une modification.');

/** `version` in an edit's body: optional, so a client that never sends it keeps working. */
export const editVersionField = z
  .int({ error: VERSION_MESSAGES.versionInvalid })
  .min(0, VERSION_MESSAGES.versionInvalid)
  .max(VERSION_MAX, VERSION_MESSAGES.versionInvalid)
  .optional()
  .describe('Version de la fiche sur laquelle la modification a été faite (409 si elle a changé depuis).');

/** What a client adds to an edit's body. */
export interface EditVersion {
  version?: number | undefined;
}

/** An edit body that may say which version it was made on. */
export function withEditVersion<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return schema.extend({ version: editVersionField });
}

const IF_MATCH = /^\s*(?:\*|"(\d{1,10})"|(\d{1,10}))\s*$/;

/**
 * The `If-Match` request header of the edits. Loose: the other headers
 * (authorization, content-type...) pass through untouched.
 */
export const ifMatchHeadersSchema = z.looseObject({
  'if-match': z
    .string()
    .max(64, VERSION_MESSAGES.ifMatchInvalid)
    .regex(IF_MATCH, VERSION_MESSAGES.ifMatchInvalid)
    .optional()
    .describe('Version de la fiche sur laquelle la modification a été faite, entre guillemets ("3"). 409 si elle a changé depuis.'),
});

/** The version an `If-Match` value names; undefined when absent or `*` (any version). */
export function parseIfMatch(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = typeof header === 'string' ? IF_MATCH.exec(header) : null;
  if (!match) throw new ValidationError(VERSION_MESSAGES.ifMatchInvalid);
  const digits = match[1] ?? match[2];
  if (digits === undefined) return undefined;
  const version = Number(digits);
  if (version > VERSION_MAX) throw new ValidationError(VERSION_MESSAGES.ifMatchInvalid);
  return version;
}

/** The version an edit was made on, from the header or the body; both given must agree. */
export function requestedVersion(header: string | string[] | undefined, bodyVersion?: number | undefined): number | undefined {
  const fromHeader = parseIfMatch(header);
  if (fromHeader !== undefined && bodyVersion !== undefined && fromHeader !== bodyVersion) throw new ValidationError(VERSION_MESSAGES.versionsDiffer);
  return fromHeader ?? bodyVersion;
}

/** The `ETag` of a fiche at `version` (what If-Match sends back). */
export function versionEtag(version: number): string {
  return `"${version}"`;
}
