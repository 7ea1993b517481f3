import type { User } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { FieldError } from '../../../components/ui/field-frame';
import { QueryOptions } from '../../../components/ui/select-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm } from '../../../lib/form-errors';
import { useFormSubmit } from '../../../lib/use-form-submit';
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
      <FieldError id={errorId} error={error} />
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
  const update = useUpdateUser();
  const conflict = useEditConflict(
    async () => (await queryClient.fetchQuery({ ...usersQuery(), staleTime: 0 })).find((candidate) => candidate.id === user.id) ?? null,
    (fresh) => {
      setValues(userFormValues(fresh, { role: fresh.role, agence_id: '' }));
      setVersion(fresh.version);
      form.clearErrors();
    },
  );

  const set = (key: keyof UserFormValues) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  const form = useFormSubmit({
    check: () => checkForm(userFieldsCheck(me), withoutAgenceUnlessPicked(me, values)),
    save: async (data) => {
      await update.mutateAsync({ id: user.id, body: { ...data, version } });
      toast.show('Utilisateur modifié.', { tone: 'success' });
      onDone();
    },
    failureMessage: (error) => errorMessage(error, USER_MESSAGES.saveError),
    conflict,
  });

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    } else if (event.key === 'Enter' && (event.target as HTMLElement).tagName === 'INPUT') {
      event.preventDefault();
      void form.submit();
    }
  };

  return (
    <tr className="data-table__editing" onKeyDown={onKeyDown}>
      <Cell label="Nom" error={form.errors.nom}>
        {(a11y) => <input className="input" value={values.nom} onChange={set('nom')} autoFocus {...a11y} />}
      </Cell>
      <Cell label="Prénom" error={form.errors.prenom}>
        {(a11y) => <input className="input" value={values.prenom} onChange={set('prenom')} {...a11y} />}
      </Cell>
      <Cell label="Email" error={form.errors.email}>
        {(a11y) => <input className="input" type="email" value={values.email} onChange={set('email')} {...a11y} />}
      </Cell>
      <Cell label="Téléphone" error={form.errors.telephone}>
        {(a11y) => <input className="input" type="tel" value={values.telephone} onChange={set('telephone')} {...a11y} />}
      </Cell>
      <Cell label="Rôle" error={form.errors.role}>
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
        <Cell label="Agence" error={form.errors.agence_id}>
          {(a11y) => (
            <select className="select" value={values.agence_id} onChange={set('agence_id')} {...a11y}>
              <QueryOptions query={agences} placeholder="Choisir une agence" />
            </select>
          )}
        </Cell>
      ) : null}
      <td>
        <div className="table-actions">
          <button type="button" className="btn btn--small btn--primary" onClick={() => void form.submit()} disabled={update.isPending} aria-busy={update.isPending || undefined}>
            Enregistrer
          </button>
          <button type="button" className="btn btn--small" onClick={onDone} disabled={update.isPending}>
            Annuler
          </button>
        </div>
        {form.failure ? (
          <p className="field__error" role="alert">
            {form.failure}
          </p>
        ) : null}
        {conflict.notice}
      </td>
    </tr>
  );
}
