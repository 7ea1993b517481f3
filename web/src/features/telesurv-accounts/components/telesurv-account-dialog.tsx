import { telesurvCreateBodySchema, telesurvUpdateBodySchema, type TelesurvAccount } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { FormDialog } from '../../../components/ui/form-dialog';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm, remainingErrors, type FieldErrors } from '../../../lib/form-errors';
import { NewPasswordField } from '../../../components/ui/password-field';
import { useCreateTelesurvAccount } from '../api/create-telesurv-account';
import { telesurvAccountsQuery } from '../api/get-telesurv-accounts';
import { TELESURV_MESSAGES } from '../api/telesurv-messages';
import { useUpdateTelesurvAccount } from '../api/update-telesurv-account';

/**
 * 'Ajouter compte télésurveillance' (§2: Nom, Email, Téléphone, Mot de passe,
 * Valider / Annuler), or its edit, where an empty password keeps the current one.
 * An account shared with agencies outside the caller's scope is edited without
 * its password, which the server would refuse (403), and says why.
 */
export function TelesurvAccountDialog({ account, onClose }: { account: TelesurvAccount | null; onClose: () => void }) {
  const toast = useToast();
  const editing = account !== null;
  const [nom, setNom] = useState(account?.nom ?? '');
  const [email, setEmail] = useState(account?.email ?? '');
  const [telephone, setTelephone] = useState(account?.telephone ?? '');
  const [motdepasse, setMotdepasse] = useState('');
  const [shared, setShared] = useState(account?.partage_hors_perimetre === true);
  // The version the values were loaded at: the save is refused (409) if the account changed since.
  const [version, setVersion] = useState(account?.version);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const create = useCreateTelesurvAccount();
  const update = useUpdateTelesurvAccount();
  const busy = create.isPending || update.isPending;
  const conflict = useEditConflict(
    async () => (account ? ((await queryClient.fetchQuery({ ...telesurvAccountsQuery(), staleTime: 0 })).find((candidate) => candidate.id === account.id) ?? null) : null),
    (fresh) => {
      setNom(fresh.nom);
      setEmail(fresh.email);
      setTelephone(fresh.telephone ?? '');
      setVersion(fresh.version);
      setShared(fresh.partage_hors_perimetre === true);
    },
  );

  // The field is gone for a shared account: nothing typed before it went is sent.
  const values = { nom, email, telephone, motdepasse: shared ? '' : motdepasse };
  // §5: one sentence for any missing required field (the schemas' own messages).
  const checkValues = () =>
    account ? ({ mode: 'edit', account, check: checkForm(telesurvUpdateBodySchema, values) } as const) : ({ mode: 'create', check: checkForm(telesurvCreateBodySchema, values) } as const);
  // After a refused save, the banner follows the fields: it goes once they are fixed (issue 18).
  const shownErrors = remainingErrors(errors, checkValues().check);
  const alert = Object.values(shownErrors)[0] ?? failure;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    conflict.clear();
    const checked = checkValues();
    if (!checked.check.ok) {
      setErrors(checked.check.errors);
      return;
    }
    setErrors({});
    try {
      if (checked.mode === 'edit') {
        await update.mutateAsync({ id: checked.account.id, body: { ...checked.check.data, version } });
        toast.show('Compte modifié.', { tone: 'success' });
      } else {
        await create.mutateAsync(checked.check.data);
        toast.show('Compte créé.', { tone: 'success' });
      }
      onClose();
    } catch (error) {
      if (!conflict.caught(error)) setFailure(errorMessage(error, editing ? TELESURV_MESSAGES.updateError : TELESURV_MESSAGES.createError));
    }
  };

  return (
    <FormDialog
      title={editing ? 'Modifier compte télésurveillance' : 'Ajouter compte télésurveillance'}
      onClose={onClose}
      onSubmit={(event) => void submit(event)}
      failure={alert}
      notice={conflict.notice}
      busy={busy}
      submitLabel="Valider"
    >
      <TextField label="Nom" required value={nom} onChange={(e) => setNom(e.target.value)} invalid={shownErrors.nom !== undefined} autoComplete="off" />
      <TextField label="Email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} invalid={shownErrors.email !== undefined} autoComplete="off" />
      <TextField label="Téléphone" type="tel" value={telephone} onChange={(e) => setTelephone(e.target.value)} invalid={shownErrors.telephone !== undefined} />
      {shared ? (
        <p className="muted">{TELESURV_MESSAGES.sharedOutsideScope}</p>
      ) : (
        <NewPasswordField
          value={motdepasse}
          onChange={setMotdepasse}
          required={!editing}
          hint={editing ? 'Laissez vide pour conserver le mot de passe actuel.' : undefined}
        />
      )}
    </FormDialog>
  );
}
