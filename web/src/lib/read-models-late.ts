import { READ_MODELS_LATE_MESSAGE } from '@fsm/contracts';

/*
 * A command answered 202: it is recorded, but the read models had not reached
 * it when the server answered (docs/tickets-api.md, "Read your writes"). The
 * answer still carries the spec's fields, so the screen that sent it goes on
 * as after a 200; this tells the user why what they see may lag, and the live
 * update for the changed stream (app/live-invalidators.ts) refetches it.
 */

export { READ_MODELS_LATE_MESSAGE };

type Listener = () => void;
const listeners = new Set<Listener>();

export function notifyReadModelsLate(): void {
  for (const listener of listeners) listener();
}

export function subscribeReadModelsLate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
