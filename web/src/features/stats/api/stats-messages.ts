export { STATS_NO_DATA_MESSAGE } from '@fsm/contracts';

/** management §8: the server's error, else this. */
export const STATS_API_ERROR = 'Erreur API';
export const STATS_EXPORT_ERROR = "Erreur lors de l'export CSV.";
