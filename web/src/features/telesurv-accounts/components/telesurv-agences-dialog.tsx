import type { TelesurvAccount } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-dialog';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { telesurvAccountsQuery } from '../api/get-telesurv-accounts';
import { telesurvAgencesQuery, useTelesurvAgences } from '../api/get-telesurv-agences';
import { useSetTelesurvAgences } from '../api/set-telesurv-agences';
import { TELESURV_MESSAGES } from '../api/telesurv-messages';

/** 'Affecter aux agences' (§2): one box per agency, Valider replaces the whole set (§4). */
export function TelesurvAgencesDialog({ account, onClose }: { account: TelesurvAccount; onClose: () => void }) {
  const toast = useToast();
  const agences = useTelesurvAgences(account.id);
  const save = useSetTelesurvAgences();
  const [checked, setChecked] = useState<Set<string> | null>(null);
  // The account's version as listed when the dialog opened: a set changed since is refused (409).
  const [version, setVersion] = useState(account.version);
  const [failure, setFailure] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const conflict = useEditConflict(
    async () => {
      const [accounts, assignments] = await Promise.all([
        queryClient.fetchQuery({ ...telesurvAccountsQuery(), staleTime: 0 }),
        queryClient.fetchQuery({ ...telesurvAgencesQuery(account.id), staleTime: 0 }),
      ]);
      const fresh = accounts.find((candidate) => candidate.id === account.id);
      return fresh ? { fresh, assignments } : null;
    },
    ({ fresh, assignments }) => {
      setChecked(new Set(assignments.filter((a) => a.assigned).map((a) => a.id)));
      setVersion(fresh.version);
    },
  );

  useEffect(() => {
    if (agences.data && checked === null) setChecked(new Set(agences.data.filter((a) => a.assigned).map((a) => a.id)));
  }, [agences.data, checked]);

  const submit = () => {
    if (!checked || !agences.data) return;
    setFailure(null);
    conflict.clear();
    save.mutate(
      { accountId: account.id, agences: agences.data.filter((a) => checked.has(a.id)).map((a) => a.id), version },
      {
        onSuccess: () => {
          toast.show('Agences affectées.', { tone: 'success' });
          onClose();
        },
        onError: (error) => {
          if (!conflict.caught(error)) setFailure(errorMessage(error, TELESURV_MESSAGES.assignError));
        },
      },
    );
  };

  return (
    <Dialog open title="Affecter aux agences" onClose={onClose}>
      <p className="muted">{account.nom}</p>
      {agences.isError ? (
        <Banner tone="error">{TELESURV_MESSAGES.agencesLoadError}</Banner>
      ) : !checked || !agences.data ? (
        <p className="muted" role="status">
          {TELESURV_MESSAGES.loading}
        </p>
      ) : agences.data.length === 0 ? (
        <p className="muted">{TELESURV_MESSAGES.noAgenceAvailable}</p>
      ) : (
        <fieldset className="fieldset checkbox-list">
          <legend className="visually-hidden">Agences</legend>
          {agences.data.map((agence) => (
            <label key={agence.id} className="checkbox-field">
              <input
                type="checkbox"
                className="checkbox"
                checked={checked.has(agence.id)}
                disabled={save.isPending}
                onChange={(event) =>
                  setChecked((set) => {
                    const next = new Set(set);
                    if (event.target.checked) next.add(agence.id);
                    else next.delete(agence.id);
                    return next;
                  })
                }
              />
              <span className="checkbox-field__label">{agence.nom}</span>
            </label>
          ))}
        </fieldset>
      )}
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      {conflict.notice}
      <FormActions busy={save.isPending} onCancel={onClose} onConfirm={submit} canSubmit={!!checked && !agences.isError} submitLabel="Valider" />
    </Dialog>
  );
}
