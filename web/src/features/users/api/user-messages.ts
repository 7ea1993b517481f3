/** management §8 verbatim where quoted; the rest written for this screen. */
export const USER_MESSAGES = {
  permissionsLoadError: 'Erreur lors du chargement des permissions.',
  permissionsSaveError: 'Erreur lors de la sauvegarde des permissions.',
  loadError: 'Erreur lors du chargement des utilisateurs.',
  saveError: "Erreur lors de l'enregistrement de l'utilisateur.",
  deleteError: "Erreur lors de la suppression de l'utilisateur.",
} as const;
