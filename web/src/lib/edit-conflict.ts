import { ApiError } from './api-client';

/*
 * Management edits carry the version of the fiche they were made on
 * (docs/management-domain.md, "Versions"). When somebody else changed it in
 * the meantime, the server refuses the save with 409 and code CONFLICT: the
 * dialog then keeps what the user typed and offers to reload the fiche.
 */

export function isEditConflict(error: unknown): error is ApiError {
  if (!(error instanceof ApiError) || error.status !== 409) return false;
  const body = error.body;
  return typeof body === 'object' && body !== null && (body as { code?: unknown }).code === 'CONFLICT';
}

export const EDIT_CONFLICT_MESSAGES = {
  /** When the server sent no text of its own. */
  fallback: 'Cette fiche a été modifiée par quelqu’un d’autre entre-temps.',
  kept: 'Vos saisies sont conservées tant que vous ne rechargez pas la fiche.',
  reload: 'Recharger la fiche',
  gone: 'Cette fiche n’existe plus : elle a été supprimée entre-temps.',
} as const;

/** The text a conflict shows: the server's words, else ours. */
export function editConflictMessage(error: ApiError): string {
  return error.serverMessage ?? EDIT_CONFLICT_MESSAGES.fallback;
}
