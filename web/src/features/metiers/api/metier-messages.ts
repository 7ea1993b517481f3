/** management §8, verbatim. */
export const METIER_MESSAGES = {
  loadError: 'Erreur chargement',
  saveError: 'Erreur',
  reorderError: 'Impossible de sauvegarder le nouvel ordre',
  hoStatsError: 'Impossible de mettre à jour HO_stats',
} as const;
