/** management §8, verbatim where quoted. */
export const TELESURV_MESSAGES = {
  createError: 'Erreur création',
  assignError: 'Erreur affectation',
  agencesLoadError: 'Erreur chargement agences',
  updateError: 'Erreur mise à jour',
  deleteError: 'Erreur suppression',
  loadError: 'Erreur lors du chargement des comptes.',
  noAgenceAvailable: 'Aucune agence disponible.',
  noAgenceAssigned: 'Aucune agence affectée',
  loading: 'Chargement…',
} as const;
