import { HIDDEN_CHARACTERS_MESSAGE } from '../hidden-characters.js';

/**
 * French texts of the ticket side. Spec texts (tickets §2, §4, §5, §8) are
 * copied verbatim, apostrophes included: the spec mixes the straight ' and the
 * typographic ’ and both are kept as written, because users, tests and the
 * original product compare them character for character. Texts the spec does
 * not give (server-side rejections) are marked "not in the spec" and use the
 * typographic apostrophe.
 */
export const TICKET_MESSAGES = {
  // --- spec §5: validation -------------------------------------------------
  requiredFields: 'Merci de remplir tous les champs obligatoires.',
  notAnImage: "Le fichier sélectionné n'est pas une image.",
  constatRequired: 'Le constat du technicien est obligatoire',
  numeroDevisRequired: 'Le numéro de devis est obligatoire.',
  photoTooLargeAfterCompression: 'Impossible de compresser la photo sous 8 Mo. Merci de choisir une image plus petite.',
  photoCompressionFailed: 'Erreur lors de la compression de la photo.',

  // --- spec §2: public link ------------------------------------------------
  invalidLink: 'Lien non valide. Merci de scanner un QR code officiel.',

  // --- spec §8: manual ticket ----------------------------------------------
  manualSaveError: 'Erreur lors de l’enregistrement.',
  manualNetworkError: 'Erreur lors de l’envoi du ticket.',
  manualSuccess: 'Le ticket a bien été enregistré.',

  // --- spec §8: telesurveillance ticket --------------------------------------
  telesurvCreateError: 'Erreur lors de la création.',
  telesurvNetworkError: 'Erreur réseau.',
  telesurvSuccess: 'Ticket créé.',

  // --- spec §8: public form ------------------------------------------------
  publicSaveError: "Erreur lors de l'enregistrement.",
  publicNetworkError: 'Erreur réseau',
  captchaFailed: 'Échec reCAPTCHA. Merci de réessayer.',
  captchaError: 'Erreur reCAPTCHA. Merci de réessayer plus tard.',
  publicSuccess: 'Votre demande a bien été enregistrée. Un technicien prendra contact avec vous rapidement.',

  // --- spec §8: ticket detail ----------------------------------------------
  ticketLoadError: 'Erreur lors du chargement du ticket',
  ticketNotFound: 'Ticket non trouvé',
  serverError: 'Erreur serveur',
  contactsLoadError: 'Erreur lors du chargement des interlocuteurs',

  // --- spec §8: report and e-mail ------------------------------------------
  reportInvalidResponse: 'Réponse invalide du serveur',
  reportEmailError: "Erreur lors de l'envoi des emails",

  // --- spec §8: quote ------------------------------------------------------
  quoteValidationError: 'Erreur lors de la validation du devis',

  // --- spec §7: session ----------------------------------------------------
  sessionExpired: 'Session expirée',

  // --- not in the spec: server-side rejections ------------------------------
  technicienRequired: 'Merci de choisir un technicien.',
  invalidStatut: 'Statut invalide.',
  invalidId: 'Identifiant invalide.',
  invalidEmail: 'Adresse email invalide.',
  invalidDate: 'Date invalide.',
  invalidDateRange: 'La date de début doit précéder la date de fin.',
  invalidRegistrationDateTime: 'Date et heure d’enregistrement invalides.',
  invalidArrivalState: 'État de l’installation à l’arrivée invalide.',
  invalidDepartureState: 'État de l’installation au départ invalide.',
  invalidTravelTime: 'Le temps de trajet doit être au format HH:mm.',
  invalidDevis: 'Le champ devis doit valoir 0 ou 1.',
  signatureClientRequired: 'La signature du client est obligatoire.',
  signatureTechnicienRequired: 'La signature du technicien est obligatoire.',
  invalidSignature: 'Signature invalide : une image PNG est attendue.',
  arrivalAfterClosure: 'L’heure d’arrivée ne peut pas être postérieure à la fin de l’intervention.',
  nomRapportRequired: 'Le nom du rapport est obligatoire.',
  invalidNomRapport: 'Nom de rapport invalide.',
  photoTooLarge: 'La photo ne doit pas dépasser 8 Mo.',
  textTooLong: 'Texte trop long.',
  invalidDelai: 'Le délai d’intervention est invalide.',
  invalidTicketBody: 'Requête invalide : choisissez un technicien ou indiquez un nom de rapport.',
  telesurvFieldsNotAllowed: (fields: readonly string[]) =>
    `Un ticket de télésurveillance ne reçoit que les champs de son formulaire ; refusé : ${fields.join(', ')}.`,
  dateOutOfRange: 'La date doit être comprise entre le 01/01/2000 et le 31/12/2099.',
  registrationInFuture: 'La date d’enregistrement ne peut pas être dans le futur.',
  visitInFuture: 'La fin de l’intervention ne peut pas être dans le futur.',
  visitBeforeOpening: 'L’arrivée du technicien ne peut pas précéder l’ouverture du ticket.',
  quoteDateBeforeOpening: 'La date d’enregistrement du devis ne peut pas précéder l’ouverture du ticket.',
  quoteDateInFuture: 'La date d’enregistrement du devis ne peut pas être dans le futur.',
  hiddenCharacters: HIDDEN_CHARACTERS_MESSAGE,

  // --- not in the spec: state rejections (409) -------------------------------
  ticketAlreadyExists: 'Ce ticket existe déjà.',
  alreadyTakenInCharge: 'Ce ticket est déjà pris en charge.',
  ticketClosed: 'Ce ticket est clos.',
  notTakenInCharge: 'Ce ticket n’a pas encore été pris en charge.',
  interventionNotFound: 'Intervention non trouvée',
  interventionAlreadyExists: 'Cette intervention est déjà enregistrée.',
  reportNeedsClosedTicket: 'Le rapport ne peut être joint qu’à un ticket clos.',
  noQuotePending: 'Aucun devis n’est attendu pour ce ticket.',
  quoteAlreadyValidated: 'Le devis de ce ticket est déjà validé.',
} as const;

/** Spec §8 report error, with the HTTP status and body of the failed call. */
export function reportGenerationErrorMessage(status: number | string, body: string): string {
  return `Erreur génération PDF: ${status} - ${body}`;
}

/** Login and password texts (spec §2, §5, §8). */
export const LOGIN_MESSAGES = {
  title: 'Connexion',
  submit: 'Se connecter',
  invalidCredentials: 'Identifiants invalides',
  networkError: 'Erreur serveur',
  // not in the spec: 400 for an empty login form
  missingCredentials: 'Merci de saisir votre email et votre mot de passe.',
} as const;

export const PASSWORD_MESSAGES = {
  allFieldsRequired: 'Tous les champs sont obligatoires.',
  criteriaNotMet: 'Le mot de passe ne respecte pas tous les critères.',
  confirmationMismatch: 'La confirmation ne correspond pas.',
  unknownError: 'Erreur inconnue.',
  networkError: 'Erreur réseau.',
  success: 'Mot de passe modifié avec succès.',
  // not in the spec: the old password the server checks is wrong
  wrongOldPassword: 'L’ancien mot de passe est incorrect.',
} as const;

/** Screen labels the spec fixes (tickets §2, §4), shared so tests find them by text. */
export const TICKET_LABELS = {
  publicFormTitle: 'Demande de dépannage',
  homeTitle: 'Résumé des tickets',
  closedListTitle: 'Tickets Clos',
  openListTitle: 'Tickets Ouverts',
  addTicket: '+ Ajouter un ticket',
  addTicketModalTitle: 'Ajouter un ticket',
  telesurvTitle: 'Nouveau ticket (Télésurveillance)',
  telesurvSubmit: 'Créer le ticket',
  sending: 'Envoi...',
  loading: 'Chargement…',
  emptyOpen: 'Aucun ticket en cours.',
  emptyClosed: 'Aucun ticket clos.',
  noClientFound: 'Aucun client trouvé',
  closedUrgent: 'Fermé en urgence',
  quoteNotValidated: 'Devis non validé',
  onlyClosedWithPendingQuote: 'Voir uniquement les tickets clos avec devis non validé',
  filters: 'Filtres',
  cardUrgent: 'Urgent',
  cardOpen: 'Ouvert',
  cardClosed: 'Clos',
  cardInProgress: 'En cours',
} as const;
