import { useState } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { FormDialog } from '../../../components/ui/form-dialog';
import { QueryOptions, SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm } from '../../../lib/form-errors';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useCreateUser } from '../api/create-user';
import { useUserAgences } from '../api/get-user-agences';
import { USER_MESSAGES } from '../api/user-messages';
import { NewPasswordField } from '../../../components/ui/password-field';
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
  const create = useCreateUser();

  const set = (key: keyof UserFormValues) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  const form = useFormSubmit({
    check: () => checkForm(userCreateCheck(me), withoutAgenceUnlessPicked(me, { ...values, motdepasse: password })),
    save: async (data) => {
      await create.mutateAsync(data);
      toast.show('Utilisateur créé.', { tone: 'success' });
      onClose();
    },
    failureMessage: (error) => errorMessage(error, USER_MESSAGES.saveError),
  });

  return (
    <FormDialog
      title="Ajouter un utilisateur"
      onClose={onClose}
      className="dialog--wide"
      onSubmit={(event) => void form.submit(event)}
      failure={form.failure}
      busy={create.isPending}
    >
      <div className="form-row">
        <TextField label="Nom" required value={values.nom} onChange={set('nom')} error={form.errors.nom} autoComplete="off" />
        <TextField label="Prénom" required value={values.prenom} onChange={set('prenom')} error={form.errors.prenom} autoComplete="off" />
      </div>
      <div className="form-row">
        <TextField label="Email" type="email" required value={values.email} onChange={set('email')} error={form.errors.email} autoComplete="off" />
        <TextField label="Téléphone" type="tel" required value={values.telephone} onChange={set('telephone')} error={form.errors.telephone} />
      </div>
      <div className="form-row">
        <SelectField label="Rôle" required value={values.role} onChange={set('role')} error={form.errors.role}>
          {roles.map((role) => (
            <option key={role.value} value={role.value}>
              {role.label}
            </option>
          ))}
        </SelectField>
        {withAgence ? (
          <SelectField label="Agence" required value={values.agence_id} onChange={set('agence_id')} error={form.errors.agence_id}>
            <QueryOptions query={agences} placeholder="Choisir une agence" />
          </SelectField>
        ) : null}
      </div>
      <NewPasswordField value={password} onChange={setPassword} error={form.errors.motdepasse} required />
    </FormDialog>
  );
}
