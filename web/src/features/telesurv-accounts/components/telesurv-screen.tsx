import { hasPermission, type TelesurvAccount } from '@fsm/contracts';
import { useState } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { RowAction } from '../../../components/ui/row-action';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteConfirm } from '../../../lib/use-delete-confirm';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useDeleteTelesurvAccount } from '../api/delete-telesurv-account';
import { useTelesurvAccounts } from '../api/get-telesurv-accounts';
import { TELESURV_MESSAGES } from '../api/telesurv-messages';
import { AgencesPopover } from './agences-popover';
import { TelesurvAccountDialog } from './telesurv-account-dialog';
import { TelesurvAgencesDialog } from './telesurv-agences-dialog';

/**
 * /telesurv (management §2): remote-surveillance accounts with their count of
 * agencies (hover for the names), edit, agency assignment and delete. The add
 * button needs telesurveillance.edit. An account shared with agencies outside
 * the caller's scope (partage_hors_perimetre) is not offered for deletion: the
 * server refuses it to all but admin_plus, and the screen says so.
 */
export function TelesurvScreen() {
  useDocumentTitle('Comptes télésurveillance');
  const me = useCurrentUser();
  const canEdit = hasPermission(me, 'telesurveillance.edit');
  const toast = useToast();
  const accounts = useTelesurvAccounts();
  const remove = useDeleteTelesurvAccount();
  const [editing, setEditing] = useState<{ account: TelesurvAccount | null } | null>(null);
  const [assigning, setAssigning] = useState<TelesurvAccount | null>(null);
  const columns = canEdit ? 5 : 4;
  const anyShared = canEdit && (accounts.data ?? []).some((account) => account.partage_hors_perimetre === true);

  const deletion = useDeleteConfirm({
    remove: (account: TelesurvAccount) => remove.mutateAsync(account.id),
    done: () => toast.show('Compte supprimé.', { tone: 'success' }),
    failureMessage: (error) => errorMessage(error, TELESURV_MESSAGES.deleteError),
  });

  return (
    <section className="stack" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">Comptes télésurveillance</h1>
        {canEdit ? (
          <button type="button" className="btn btn--primary" onClick={() => setEditing({ account: null })}>
            + Ajouter
          </button>
        ) : null}
      </div>
      {accounts.isError ? <Banner tone="error">{errorMessage(accounts.error, TELESURV_MESSAGES.loadError)}</Banner> : null}
      {anyShared ? <p className="muted">{TELESURV_MESSAGES.sharedOutsideScope}</p> : null}
      <div className="table-wrap">
        <table className="data-table">
          <caption className="visually-hidden">Comptes télésurveillance</caption>
          <thead>
            <tr>
              <th scope="col">Nom</th>
              <th scope="col">Email</th>
              <th scope="col">Téléphone</th>
              <th scope="col">Agences</th>
              {canEdit ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {accounts.isPending ? (
              <SkeletonRows columns={columns} />
            ) : (accounts.data ?? []).length === 0 ? (
              <tr>
                <td colSpan={columns} className="data-table__empty">
                  Aucun compte télésurveillance.
                </td>
              </tr>
            ) : (
              (accounts.data ?? []).map((account) => (
                <tr key={account.id}>
                  <th scope="row">{account.nom}</th>
                  <td>{account.email}</td>
                  <td>{account.telephone ?? '—'}</td>
                  <td>
                    <AgencesPopover account={account} />
                  </td>
                  {canEdit ? (
                    <td>
                      <div className="table-actions">
                        <RowAction label={`Modifier ${account.nom}`} onClick={() => setEditing({ account })}>Modifier</RowAction>
                        <RowAction label={`Affecter ${account.nom} aux agences`} onClick={() => setAssigning(account)}>Affecter aux agences</RowAction>
                        {account.partage_hors_perimetre === true ? (
                          <span className="muted">{TELESURV_MESSAGES.sharedOutsideScopeShort}</span>
                        ) : (
                          <RowAction label={`Supprimer ${account.nom}`} onClick={() => deletion.ask(account)} danger>Supprimer</RowAction>
                        )}
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {editing ? <TelesurvAccountDialog account={editing.account} onClose={() => setEditing(null)} /> : null}
      {assigning ? <TelesurvAgencesDialog account={assigning} onClose={() => setAssigning(null)} /> : null}
      <ConfirmDialog
        title="Supprimer le compte"
        message={`Supprimer le compte télésurveillance « ${deletion.target?.nom ?? ''} » ?`}
        {...deletion.dialog}
      />
    </section>
  );
}
