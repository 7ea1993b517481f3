/** management §8 verbatim where quoted; the rest written where the spec shows no wording. */
export const CLIENT_MESSAGES = {
  contactsLoadError: 'Erreur chargement des interlocuteurs',
  contactDeleteError: "Erreur lors de la suppression de l'interlocuteur",
  saveError: "Erreur lors de l'enregistrement",
  deleteError: 'Erreur lors de la suppression',
  loadError: 'Erreur lors du chargement des clients.',
  sitesLoadError: 'Erreur lors du chargement des sites.',
} as const;
