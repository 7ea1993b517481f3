import { HIDDEN_CHARACTERS_MESSAGE } from '../hidden-characters.js';
import { TICKET_DELAI_MAX_HOURS } from '../tickets/ticket-constants.js';

/**
 * French messages of the management side, shared by the API (zod and decider
 * rejections) and the UI. Wording quoted from management.md is verbatim; the
 * rest was written where the spec shows none.
 */
export const MANAGEMENT_MESSAGES = {
  // Quoted from management.md §5 and §8.
  siteFieldsRequired: 'Tous les champs sont obligatoires !',
  agenceRequired: 'Veuillez sélectionner une agence.',
  telesurvFieldsRequired: 'Nom, email et mot de passe sont requis',
  templateFieldsRequired: 'Nom et contenu requis.',

  // Written for this product.
  textExpected: 'Ce champ doit être un texte.',
  tooLong: (max: number) => `Ce champ ne doit pas dépasser ${max} caractères.`,
  hiddenCharacters: HIDDEN_CHARACTERS_MESSAGE,
  emailInvalid: 'Adresse e-mail invalide.',
  passwordPolicy: 'Le mot de passe ne respecte pas tous les critères.',

  agenceNomRequired: "Le nom de l'agence est obligatoire.",
  agenceAdresseRequired: "L'adresse de l'agence est obligatoire.",
  agenceCodePostalRequired: "Le code postal de l'agence est obligatoire.",
  agenceVilleRequired: "La ville de l'agence est obligatoire.",
  agenceTelephoneRequired: "Le téléphone de l'agence est obligatoire.",
  agenceTemplateInvalid: 'Modèle de document invalide.',
  horaireDayInvalid: 'Les horaires ne concernent que les jours du lundi (1) au vendredi (5).',
  horaireDayDuplicated: "Chaque jour ne peut figurer qu'une fois dans les horaires.",
  horaireTimeInvalid: "L'heure doit être au format HH:mm.",
  horaireMorningPair: "L'ouverture et la fermeture du matin doivent être renseignées ensemble.",
  horaireAfternoonPair: "L'ouverture et la fermeture de l'après-midi doivent être renseignées ensemble.",
  horaireMorningOrder: "La fermeture du matin doit être après l'ouverture.",
  horaireAfternoonOrder: "La fermeture de l'après-midi doit être après l'ouverture.",
  horaireHalfDaysOverlap: "L'après-midi doit commencer après la fermeture du matin.",

  clientFieldsRequired: "Le nom, l'adresse, la ville et le code postal du client sont obligatoires.",
  clientRequired: 'Veuillez sélectionner un client.',

  installationNomRequired: "Le nom de l'installation est obligatoire.",
  installationMetierRequired: 'Veuillez sélectionner un métier.',
  installationDescriptionRequired: 'La description est obligatoire.',
  installationDelaiRequired: 'Le délai est obligatoire.',
  installationDelaiInvalid: "Le délai doit être un nombre entier d'heures, d'au moins 1 heure.",
  installationDelaiTooLarge: `Le délai ne peut pas dépasser ${TICKET_DELAI_MAX_HOURS} heures (un an).`,
  installationAstreinteInvalid: "L'astreinte vaut 0 ou 1.",
  siteRequired: 'Veuillez sélectionner un site.',

  interlocuteurNomPrenomRequired: 'Le nom et le prénom sont obligatoires.',
  interlocuteurAffectationInvalid: 'Affectation invalide.',

  qrCountInvalid: 'Le nombre de QR codes doit être un nombre.',
  qrCountTooSmall: 'Générez au moins 1 QR code.',
  installationInvalid: 'Installation invalide.',
  qrCodeKeyInvalid: 'Clé de QR code invalide.',
  qrCodeUrlRequired: 'URL de QR code manquante.',

  userNomRequired: 'Le nom est obligatoire.',
  userPrenomRequired: 'Le prénom est obligatoire.',
  userEmailRequired: "L'email est obligatoire.",
  userTelephoneRequired: 'Le téléphone est obligatoire.',
  userPasswordRequired: 'Le mot de passe est obligatoire.',
  telesurvNomEmailRequired: 'Nom et email sont requis',
  telesurvAgenceInvalid: 'Agence invalide.',

  metierNomRequired: 'Le nom du métier est obligatoire.',
  metierOrdreInvalid: "L'ordre doit être un nombre entier.",
  metierOrdreOutOfRange: "L'ordre doit être compris entre -99999 et 99999.",
  metierDelaiInvalid: "Le délai d'intervention doit être un nombre.",
  metierDelaiNegative: "Le délai d'intervention doit être positif ou nul.",
  metierDelaiTooLarge: `Le délai d'intervention ne peut pas dépasser ${TICKET_DELAI_MAX_HOURS} heures (un an).`,
  metierHoStatsInvalid: 'HO_stats vaut 0 ou 1.',
  metierReorderDuplicated: "Chaque métier ne peut figurer qu'une fois dans le nouvel ordre.",
  metierNomTaken: 'Un métier porte déjà ce nom.',

  templateTooLarge: 'Le modèle est trop volumineux.',

  statsDateInvalid: 'La date doit être au format AAAA-MM-JJ.',
  statsRangeInverted: 'La date de début doit précéder la date de fin.',

  // Not found, and refused states (decider rejections).
  agenceNotFound: 'Agence introuvable.',
  clientNotFound: 'Client introuvable.',
  siteNotFound: 'Site introuvable.',
  installationNotFound: 'Installation introuvable.',
  interlocuteurNotFound: 'Interlocuteur introuvable.',
  qrCodeNotFound: 'QR code introuvable.',
  userNotFound: 'Utilisateur introuvable.',
  telesurvNotFound: 'Compte télésurveillance introuvable.',
  metierNotFound: 'Métier introuvable.',
  templateNotFound: 'Modèle introuvable.',

  agenceExists: 'Cette agence existe déjà.',
  clientExists: 'Ce client existe déjà.',
  siteExists: 'Ce site existe déjà.',
  installationExists: 'Cette installation existe déjà.',
  interlocuteurExists: 'Cet interlocuteur existe déjà.',
  qrCodeExists: 'Ce QR code existe déjà.',
  userExists: 'Cet utilisateur existe déjà.',
  metierExists: 'Ce métier existe déjà.',
  templateExists: 'Ce modèle existe déjà.',

  agenceHasClients: 'Impossible de supprimer cette agence : des clients y sont encore rattachés.',
  agenceHasUsers: 'Impossible de supprimer cette agence : des utilisateurs y sont encore rattachés.',
  clientHasOpenTickets: 'Impossible de supprimer ce client : des tickets sont encore ouverts.',
  siteHasOpenTickets: 'Impossible de supprimer ce site : des tickets sont encore ouverts.',
  installationHasOpenTickets: 'Impossible de supprimer cette installation : des tickets sont encore ouverts.',
  metierInUse: "Impossible de supprimer ce métier : des installations l'utilisent encore.",
  templateInUse: 'Impossible de supprimer ce modèle : il est affecté à une agence.',
  qrCodeAssignedElsewhere: 'Ce QR code est déjà affecté à une autre installation.',
  qrCodeOtherAgence: "Ce QR code appartient à une autre agence que l'installation.",
  userCannotDeleteSelf: 'Vous ne pouvez pas supprimer votre propre compte.',
  userEmailTaken: 'Cette adresse e-mail est déjà utilisée.',
  userIsTelesurv: "Ce compte est un compte télésurveillance : modifiez-le depuis l'écran Télésurveillance.",
  telesurvHasNoPermissions: "Un compte télésurveillance n'a pas de permissions.",
  ownPasswordThroughChange:
    'Pour changer votre propre mot de passe, utilisez « Changer le mot de passe » (votre nom dans la barre de navigation) : l’ancien mot de passe y est demandé.',
  telesurvSharedOutsideScope:
    "Ce compte télésurveillance est aussi affecté à une agence qui n'est pas la vôtre : seul un administrateur plateforme peut changer son mot de passe ou le supprimer.",
} as const;
