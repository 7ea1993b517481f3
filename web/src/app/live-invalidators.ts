import type { StreamInvalidators } from '../lib/live-updates';

/**
 * Stream category → query keys to refetch when one of its streams changes.
 * Each feature adds its own entry, built from its query-key factory (e.g.
 * `ticket: (ids) => [ticketKeys.lists(), ...ids.map(ticketKeys.detail)]`).
 * The entries below use the factories' root keys until those exist.
 */
export const liveInvalidators: StreamInvalidators = {
  ticket: () => [['tickets']],
  client: () => [['clients']],
  agence: () => [['agences']],
  utilisateur: () => [['utilisateurs']],
  metier: () => [['metiers']],
};
