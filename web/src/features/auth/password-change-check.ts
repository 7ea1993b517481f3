import { changePasswordFormSchema, PASSWORD_MESSAGES, type ChangePasswordForm } from '@fsm/contracts';
import { checkForm } from '../../lib/form-errors';

/** Delay before the dialog closes after a success (spec §4). */
export const PASSWORD_DIALOG_CLOSE_DELAY_MS = 1500;

/** 'all': the banner above the form; otherwise the field the message goes under. */
export interface PasswordChangeProblem {
  field: 'all' | keyof ChangePasswordForm;
  message: string;
}

/**
 * The first rule the form breaks, in the order the spec lists them (§5: every
 * field filled, the criteria, the confirmation), or null. The rules and their
 * French messages are contracts' `changePasswordFormSchema`, the server's own.
 */
export function validatePasswordChange(form: ChangePasswordForm): PasswordChangeProblem | null {
  const check = checkForm(changePasswordFormSchema, form);
  if (check.ok) return null;
  if (Object.values(check.errors).includes(PASSWORD_MESSAGES.allFieldsRequired)) return { field: 'all', message: PASSWORD_MESSAGES.allFieldsRequired };
  for (const field of ['newPassword', 'oldPassword', 'confirmation'] as const) {
    const message = check.errors[field];
    if (message) return { field, message };
  }
  return { field: 'all', message: check.first };
}
