import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Ticket } from '@fsm/contracts';
import type { TokenService } from '../auth/tokens.js';

/*
 * Photo links (issue 32, item 11). A ticket photo is shown with <img src>,
 * which cannot send a bearer token; the file's SHA-256 used to be the whole
 * capability, valid for anyone forever. Ticket answers now carry the photo's
 * URL signed for that one file, expiring within FILE_LINK_TTL_SECONDS to twice
 * that: `/api/files/<ref>?exp=<unix seconds>&sig=<HMAC>`. The expiry is
 * rounded to the hour, so the URL of one photo stays the same for an hour and
 * the browser's cache and React's <img> keep it across refetches.
 */

export const FILE_LINK_TTL_SECONDS = 3600;
const FILES_PREFIX = '/api/files/';

function signature(key: Buffer, ref: string, exp: number): string {
  return createHmac('sha256', key).update(`${ref}\n${exp}`).digest('base64url');
}

/** The expiry of a link made at `now`: the end of the next hour (between one and two hours away). */
function fileLinkExpiry(now: Date): number {
  const seconds = Math.floor(now.getTime() / 1000);
  return (Math.floor(seconds / FILE_LINK_TTL_SECONDS) + 2) * FILE_LINK_TTL_SECONDS;
}

/** `/api/files/<ref>?exp=…&sig=…`, valid until fileLinkExpiry(now). */
function signedFileUrl(key: Buffer, ref: string, now: Date): string {
  const exp = fileLinkExpiry(now);
  return `${FILES_PREFIX}${encodeURIComponent(ref)}?exp=${exp}&sig=${signature(key, ref, exp)}`;
}

/** Seconds the link stays valid (> 0), or null when it is not a valid, unexpired link for `ref`. */
export function fileLinkValidFor(key: Buffer, ref: string, exp: string | undefined, sig: string | undefined, now: Date): number | null {
  if (exp === undefined || sig === undefined || !/^\d{1,12}$/.test(exp)) return null;
  const expiry = Number(exp);
  const left = expiry - Math.floor(now.getTime() / 1000);
  if (left <= 0 || left > 2 * FILE_LINK_TTL_SECONDS) return null;
  const expected = Buffer.from(signature(key, ref, expiry));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected) ? left : null;
}

/** The purpose of the key photo links are signed with (TokenService.derivedKey). */
export const FILE_LINK_KEY_PURPOSE = 'file-link';

/** Signs the photo of every ticket an answer carries (withSignedPhoto, with the app's key and clock). */
export function photoSignerOf(deps: { tokens: TokenService; clock: () => Date }): <T extends Pick<Ticket, 'photo'>>(ticket: T) => T {
  const key = deps.tokens.derivedKey(FILE_LINK_KEY_PURPOSE);
  return (ticket) => withSignedPhoto(ticket, key, deps.clock());
}

/**
 * The ticket with its photo URL signed (in place, the key keeps its position):
 * the read model answers `/api/files/<ref>`, the API adds the signature.
 */
function withSignedPhoto<T extends Pick<Ticket, 'photo'>>(ticket: T, key: Buffer, now: Date): T {
  const photo = ticket.photo;
  if (photo !== null && photo.startsWith(FILES_PREFIX) && !photo.includes('?')) {
    ticket.photo = signedFileUrl(key, decodeURIComponent(photo.slice(FILES_PREFIX.length)), now);
  }
  return ticket;
}
