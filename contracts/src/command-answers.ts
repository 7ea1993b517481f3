import { z } from 'zod';

/*
 * What every state-changing call of the API may add to its answer, whatever
 * the route (docs/tickets-api.md, "Read your writes and concurrency" and
 * "Commands carry their own id").
 */

/** Header of a 202 answer: the event-log position the command wrote (opaque, as in the live updates). */
export const POSITION_HEADER = 'x-position';

/**
 * A command is recorded but the read models had not reached it when the API
 * answered (projections stopped or held back): 202, this text, and the screen
 * refreshes when the live update for the changed stream arrives.
 */
export const READ_MODELS_LATE_MESSAGE = 'Votre modification est enregistrée ; l’affichage sera mis à jour dans quelques instants.';

/** Added to the spec's answer (an object) of a 202; every field of the spec's answer stays. */
export const pendingReadSchema = z.object({
  position: z.string().max(200),
  message: z.string().max(200),
});
export type PendingRead = z.infer<typeof pendingReadSchema>;
/** The field of the answer that carries it (`message` is taken by some spec answers). */
export const PENDING_READ_FIELD = 'pending';

/** Opt-in request header: a UUID the client chooses per submission and re-sends when it retries that submission. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/**
 * Routes whose answer or body carries a session token or a password: never
 * stored for replay, so the key is not sent (web) nor used (API) there.
 */
export const ROUTES_WITHOUT_IDEMPOTENCY: readonly string[] = ['/api/login', '/api/logout', '/api/utilisateurs/change-password'];
/** Set on an answer replayed from an earlier request with the same key. */
export const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';
/** How long an answer is kept for replay. */
export const IDEMPOTENCY_TTL_HOURS = 24;

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: 'En-tête Idempotency-Key invalide : un identifiant UUID est attendu.',
  inProgress: 'Cette demande est déjà en cours de traitement. Patientez quelques instants puis rechargez la page.',
  keyReused: 'Cet identifiant de demande (Idempotency-Key) a déjà servi pour une autre demande.',
} as const;
