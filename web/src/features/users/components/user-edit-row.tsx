import type { User } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { useToast } from '../../../components/ui/toast';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { errorMessage } from '../../../lib/api-client';
import { checkForm, remainingErrors, type FieldErrors } from '../../../lib/form-errors';
import { useUserAgences } from '../api/get-user-agences';
import { usersQuery } from '../api/get-users';
import { useUpdateUser } from '../api/update-user';
import { USER_MESSAGES } from '../api/user-messages';
import { picksAgence, roleOptions, userFieldsCheck, userFormValues, withoutAgenceUnlessPicked, type UserFormValues } from './user-form';

function Cell({ label, error, children }: { label: string; error?: string; children: (props: { 'aria-label': string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ReactNode }) {
  const errorId = error ? `edit-${label}-error` : undefined;
  return (
    <td>
      {children({ 'aria-label': label, 'aria-invalid': error ? true : undefined, 'aria-describedby': errorId })}
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </td>
  );
}

/**
 * The inline edit of a row (§2): the cells become fields, Enregistrer saves,
 * Annuler or Escape gives the row back. The password is kept (empty).
 */
export function UserEditRow({ user, onDone }: { user: User; onDone: () => void }) {
  const me = useCurrentUser();
  const toast = useToast();
  const withAgence = picksAgence(me);
  const agences = useUserAgences(withAgence);
  const roles = roleOptions(me, user.role);
  const queryClient = useQueryClient();
  const [values, setValues] = useState<UserFormValues>(userFormValues(user, { role: user.role, agence_id: '' }));
  // The version of the row when the edit began (the list may refresh meanwhile): the save is refused (409) if it changed since.
  const [version, setVersion] = useState(user.version);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateUser();
  const conflict = useEditConflict(
    async () => (await queryClient.fetchQuery({ ...usersQuery(), staleTime: 0 })).find((candidate) => candidate.id === user.id) ?? null,
    (fresh) => {
      setValues(userFormValues(fresh, { role: fresh.role, agence_id: '' }));
      setVersion(fresh.version);
      setErrors({});
    },
  );

  const set = (key: keyof UserFormValues) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  const checkValues = () => checkForm(userFieldsCheck(me), withoutAgenceUnlessPicked(me, values));
  // After a refused save, each message follows its field: it goes once the field is fixed.
  const shownErrors = remainingErrors(errors, checkValues());

  const save = async () => {
    setFailure(null);
    conflict.clear();
    const check = checkValues();
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors({});
    try {
      await update.mutateAsync({ id: user.id, body: { ...check.data, version } });
      toast.show('Utilisateur modifié.', { tone: 'success' });
      onDone();
    } catch (error) {
      if (!conflict.caught(error)) setFailure(errorMessage(error, USER_MESSAGES.saveError));
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    } else if (event.key === 'Enter' && (event.target as HTMLElement).tagName === 'INPUT') {
      event.preventDefault();
      void save();
    }
  };

  return (
    <tr className="data-table__editing" onKeyDown={onKeyDown}>
      <Cell label="Nom" error={shownErrors.nom}>
        {(a11y) => <input className="input" value={values.nom} onChange={set('nom')} autoFocus {...a11y} />}
      </Cell>
      <Cell label="Prénom" error={shownErrors.prenom}>
        {(a11y) => <input className="input" value={values.prenom} onChange={set('prenom')} {...a11y} />}
      </Cell>
      <Cell label="Email" error={shownErrors.email}>
        {(a11y) => <input className="input" type="email" value={values.email} onChange={set('email')} {...a11y} />}
      </Cell>
      <Cell label="Téléphone" error={shownErrors.telephone}>
        {(a11y) => <input className="input" type="tel" value={values.telephone} onChange={set('telephone')} {...a11y} />}
      </Cell>
      <Cell label="Rôle" error={shownErrors.role}>
        {(a11y) => (
          <select className="select" value={values.role} onChange={set('role')} {...a11y}>
            {roles.map((role) => (
              <option key={role.value} value={role.value}>
                {role.label}
              </option>
            ))}
          </select>
        )}
      </Cell>
      {withAgence ? (
        <Cell label="Agence" error={shownErrors.agence_id}>
          {(a11y) => (
            <select className="select" value={values.agence_id} onChange={set('agence_id')} {...a11y}>
              <option value="">{agences.isPending ? 'Chargement…' : 'Choisir une agence'}</option>
              {(agences.data ?? []).map((agence) => (
                <option key={agence.id} value={agence.id}>
                  {agence.nom}
                </option>
              ))}
            </select>
          )}
        </Cell>
      ) : null}
      <td>
        <div className="table-actions">
          <button type="button" className="btn btn--small btn--primary" onClick={() => void save()} disabled={update.isPending} aria-busy={update.isPending || undefined}>
            Enregistrer
          </button>
          <button type="button" className="btn btn--small" onClick={onDone} disabled={update.isPending}>
            Annuler
          </button>
        </div>
        {failure ? (
          <p className="field__error" role="alert">
            {failure}
          </p>
        ) : null}
        {conflict.notice}
      </td>
    </tr>
  );
}
