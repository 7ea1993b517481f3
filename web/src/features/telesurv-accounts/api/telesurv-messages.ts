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
  /** Said where the screen holds back the password and Supprimer of an account shared with other agencies. */
  sharedOutsideScope: "Compte partagé avec d'autres agences : seul un administrateur plateforme peut changer son mot de passe ou le supprimer.",
  sharedOutsideScopeShort: "Compte partagé avec d'autres agences",
} as const;
