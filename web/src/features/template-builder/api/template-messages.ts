;

/** management §8, verbatim. */
export const TEMPLATE_MESSAGES = {
  loadError: 'Erreur lors du chargement des modèles',
  saveError: 'Erreur lors de la sauvegarde',
  agencesLoadError: 'Erreur lors du chargement des agences',
  deleteError: 'Erreur lors de la suppression',
} as const;
