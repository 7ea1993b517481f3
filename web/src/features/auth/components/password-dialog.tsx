import { PASSWORD_MESSAGES } from '@fsm/contracts';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-dialog';
import { PasswordCriteriaList } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { NetworkError, errorMessage } from '../../../lib/api-client';
import { useChangePassword } from '../api/change-password';
import { PASSWORD_DIALOG_CLOSE_DELAY_MS, validatePasswordChange, type PasswordChangeProblem } from '../password-change-check';

export interface PasswordDialogProps {
  open: boolean;
  onClose: () => void;
}

/** 'Changer mon mot de passe', opened from the user's name in the navigation bar. */
export function PasswordDialog({ open, onClose }: PasswordDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Changer mon mot de passe">
      {/* Mounted only while open, so every opening starts from an empty form. */}
      <PasswordForm onClose={onClose} />
    </Dialog>
  );
}

function PasswordForm({ onClose }: { onClose: () => void }) {
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<PasswordChangeProblem | null>(null);
  const mutation = useChangePassword();

  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  const succeeded = mutation.isSuccess;
  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(() => onCloseRef.current(), PASSWORD_DIALOG_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [succeeded]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending || succeeded) return;
    const found = validatePasswordChange({ oldPassword, newPassword, confirmation });
    setProblem(found);
    if (found) return;
    mutation.mutate({ oldPassword, newPassword });
  };

  const serverError = mutation.isError
    ? mutation.error instanceof NetworkError
      ? PASSWORD_MESSAGES.networkError
      : errorMessage(mutation.error, PASSWORD_MESSAGES.unknownError)
    : null;

  const missing = problem?.field === 'all';
  const busy = mutation.isPending;
  const passwordField = (
    label: string,
    autoComplete: 'current-password' | 'new-password',
    value: string,
    onChange: (value: string) => void,
    extra: { error?: string | null; hint?: ReactNode } = {},
  ) => (
    <TextField
      label={label}
      type="password"
      autoComplete={autoComplete}
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
      invalid={missing && !value}
      disabled={succeeded}
      {...extra}
    />
  );

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {missing ? <Banner tone="error">{problem.message}</Banner> : null}
      {serverError ? <Banner tone="error">{serverError}</Banner> : null}
      {succeeded ? <Banner tone="success">{PASSWORD_MESSAGES.success}</Banner> : null}

      {passwordField('Ancien mot de passe', 'current-password', oldPassword, setOldPassword, {
        error: problem?.field === 'oldPassword' ? problem.message : null,
      })}
      {passwordField('Nouveau mot de passe', 'new-password', newPassword, setNewPassword, {
        error: problem?.field === 'newPassword' ? problem.message : null,
        hint: <PasswordCriteriaList password={newPassword} />,
      })}
      {passwordField('Confirmation du nouveau mot de passe', 'new-password', confirmation, setConfirmation, {
        error: problem?.field === 'confirmation' ? problem.message : null,
      })}

      <FormActions busy={busy} onCancel={onClose} cancelWhileBusy canSubmit={!succeeded} submitLabel="Valider" busyLabel="Enregistrement…" />
    </form>
  );
}
