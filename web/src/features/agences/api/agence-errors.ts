import { ApiError, errorMessage } from '../../../lib/api-client';

/** management §8, verbatim: what an agency save refused with 403 shows. */
const AGENCE_FORBIDDEN_MESSAGE = "Accès refusé: vous n'avez pas la permission de créer/modifier/supprimer une agence.";

export const AGENCE_MESSAGES = {
  loadError: 'Erreur lors du chargement des agences.',
  saveError: "Erreur lors de l'enregistrement de l'agence.",
  deleteError: "Erreur lors de la suppression de l'agence.",
  horairesLoadError: 'Erreur lors du chargement des horaires.',
} as const;

/** A 403 on an agency save always reads the spec's sentence; other failures the server's words or `fallback`. */
export function agenceErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 403) return AGENCE_FORBIDDEN_MESSAGE;
  return errorMessage(error, fallback);
}
