/**
 * Password-change rules and messages (spec §5 and §8). The server applies the
 * same policy; these only give the user an answer before the round trip.
 */

const PASSWORD_MIN_LENGTH = 8;

/** Delay before the dialog closes after a success (spec §4). */
export const PASSWORD_DIALOG_CLOSE_DELAY_MS = 1500;

export const PASSWORD_MESSAGES = {
  required: 'Tous les champs sont obligatoires.',
  criteria: 'Le mot de passe ne respecte pas tous les critères.',
  mismatch: 'La confirmation ne correspond pas.',
  unknown: 'Erreur inconnue.',
  network: 'Erreur réseau.',
  success: 'Mot de passe modifié avec succès.',
} as const;

export interface PasswordCriterion {
  id: 'length' | 'letter' | 'digit' | 'special';
  label: string;
  test: (password: string) => boolean;
}

export const PASSWORD_CRITERIA: readonly PasswordCriterion[] = [
  { id: 'length', label: `${PASSWORD_MIN_LENGTH} caractères minimum`, test: (p) => [...p].length >= PASSWORD_MIN_LENGTH },
  // Letters include accented ones: "Été" counts as letters for a French user.
  { id: 'letter', label: 'Une lettre', test: (p) => /\p{L}/u.test(p) },
  { id: 'digit', label: 'Un chiffre', test: (p) => /\p{N}/u.test(p) },
  { id: 'special', label: 'Un caractère spécial (ex. ! ? @ #)', test: (p) => /[^\p{L}\p{N}]/u.test(p) },
];

export function meetsPasswordCriteria(password: string): boolean {
  return PASSWORD_CRITERIA.every((criterion) => criterion.test(password));
}

export interface PasswordChangeForm {
  oldPassword: string;
  newPassword: string;
  confirmation: string;
}

export type PasswordChangeProblem =
  | { field: 'all'; message: typeof PASSWORD_MESSAGES.required }
  | { field: 'newPassword'; message: typeof PASSWORD_MESSAGES.criteria }
  | { field: 'confirmation'; message: typeof PASSWORD_MESSAGES.mismatch };

/** The first rule the form breaks, in the order the spec lists them, or null. */
export function validatePasswordChange(form: PasswordChangeForm): PasswordChangeProblem | null {
  if (!form.oldPassword || !form.newPassword || !form.confirmation) {
    return { field: 'all', message: PASSWORD_MESSAGES.required };
  }
  if (!meetsPasswordCriteria(form.newPassword)) {
    return { field: 'newPassword', message: PASSWORD_MESSAGES.criteria };
  }
  if (form.newPassword !== form.confirmation) {
    return { field: 'confirmation', message: PASSWORD_MESSAGES.mismatch };
  }
  return null;
}
