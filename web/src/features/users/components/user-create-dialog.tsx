import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { useCurrentUser } from '../../../app/guards';
import { errorMessage } from '../../../lib/api-client';
import { checkForm, remainingErrors, type FieldErrors } from '../../../lib/form-errors';
import { useCreateUser } from '../api/create-user';
import { useUserAgences } from '../api/get-user-agences';
import { USER_MESSAGES } from '../api/user-messages';
import { NewPasswordField } from './password-field';
import { picksAgence, roleOptions, userCreateCheck, userFormValues, withoutAgenceUnlessPicked, type UserFormValues } from './user-form';

/** 'Ajouter un utilisateur': nom, prénom, email and téléphone required (§5), a role, a first password, the agency for admin_plus. */
export function UserCreateDialog({ onClose }: { onClose: () => void }) {
  const me = useCurrentUser();
  const toast = useToast();
  const withAgence = picksAgence(me);
  const agences = useUserAgences(withAgence);
  const roles = roleOptions(me);
  const [values, setValues] = useState<UserFormValues>(userFormValues(null, { role: roles.at(-1)?.value ?? 'technicien', agence_id: '' }));
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateUser();

  const set = (key: keyof UserFormValues) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  const checkValues = () => checkForm(userCreateCheck(me), withoutAgenceUnlessPicked(me, { ...values, motdepasse: password }));
  // After a refused save, each message follows its field: it goes once the field is fixed.
  const shownErrors = remainingErrors(errors, checkValues());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const check = checkValues();
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors({});
    try {
      await create.mutateAsync(check.data);
      toast.show('Utilisateur créé.', { tone: 'success' });
      onClose();
    } catch (error) {
      setFailure(errorMessage(error, USER_MESSAGES.saveError));
    }
  };

  return (
    <Dialog open title="Ajouter un utilisateur" onClose={onClose} className="dialog--wide">
      <form className="stack" onSubmit={submit} noValidate>
        <div className="form-row">
          <TextField label="Nom" required value={values.nom} onChange={set('nom')} error={shownErrors.nom} autoComplete="off" />
          <TextField label="Prénom" required value={values.prenom} onChange={set('prenom')} error={shownErrors.prenom} autoComplete="off" />
        </div>
        <div className="form-row">
          <TextField label="Email" type="email" required value={values.email} onChange={set('email')} error={shownErrors.email} autoComplete="off" />
          <TextField label="Téléphone" type="tel" required value={values.telephone} onChange={set('telephone')} error={shownErrors.telephone} />
        </div>
        <div className="form-row">
          <SelectField label="Rôle" required value={values.role} onChange={set('role')} error={shownErrors.role}>
            {roles.map((role) => (
              <option key={role.value} value={role.value}>
                {role.label}
              </option>
            ))}
          </SelectField>
          {withAgence ? (
            <SelectField label="Agence" required value={values.agence_id} onChange={set('agence_id')} error={shownErrors.agence_id}>
              <option value="">{agences.isPending ? 'Chargement…' : 'Choisir une agence'}</option>
              {(agences.data ?? []).map((agence) => (
                <option key={agence.id} value={agence.id}>
                  {agence.nom}
                </option>
              ))}
            </SelectField>
          ) : null}
        </div>
        <NewPasswordField value={password} onChange={setPassword} error={shownErrors.motdepasse} required />
        {failure ? <Banner tone="error">{failure}</Banner> : null}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={onClose} disabled={create.isPending}>
            Annuler
          </button>
          <button type="submit" className="btn btn--primary" disabled={create.isPending} aria-busy={create.isPending || undefined}>
            Enregistrer
          </button>
        </div>
      </form>
    </Dialog>
  );
}
