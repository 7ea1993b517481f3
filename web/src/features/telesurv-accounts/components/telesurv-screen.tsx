import { hasPermission, type TelesurvAccount } from '@fsm/contracts';
import { useState } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataTable } from '../../../components/ui/data-table';
import { RowAction } from '../../../components/ui/row-action';
import { TitledScreen } from '../../../components/ui/titled-screen';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteConfirm } from '../../../lib/use-delete-confirm';
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
  const me = useCurrentUser();
  const canEdit = hasPermission(me, 'telesurveillance.edit');
  const toast = useToast();
  const accounts = useTelesurvAccounts();
  const remove = useDeleteTelesurvAccount();
  const [editing, setEditing] = useState<{ account: TelesurvAccount | null } | null>(null);
  const [assigning, setAssigning] = useState<TelesurvAccount | null>(null);
  const list = accounts.data ?? [];
  const anyShared = canEdit && list.some((account) => account.partage_hors_perimetre === true);

  const deletion = useDeleteConfirm({
    remove: (account: TelesurvAccount) => remove.mutateAsync(account.id),
    done: () => toast.show('Compte supprimé.', { tone: 'success' }),
    failureMessage: (error) => errorMessage(error, TELESURV_MESSAGES.deleteError),
  });

  return (
    <TitledScreen title="Comptes télésurveillance" action={canEdit ? { label: '+ Ajouter', onClick: () => setEditing({ account: null }) } : null}>
      {accounts.isError ? <Banner tone="error">{errorMessage(accounts.error, TELESURV_MESSAGES.loadError)}</Banner> : null}
      {anyShared ? <p className="muted">{TELESURV_MESSAGES.sharedOutsideScope}</p> : null}
      <div className="table-wrap">
        <DataTable
          caption="Comptes télésurveillance"
          headers={['Nom', 'Email', 'Téléphone', 'Agences', canEdit && 'Actions']}
          pending={accounts.isPending}
          isEmpty={list.length === 0}
          emptyText="Aucun compte télésurveillance."
        >
          {list.map((account) => (
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
          ))}
        </DataTable>
      </div>
      {editing ? <TelesurvAccountDialog account={editing.account} onClose={() => setEditing(null)} /> : null}
      {assigning ? <TelesurvAgencesDialog account={assigning} onClose={() => setAssigning(null)} /> : null}
      <ConfirmDialog
        title="Supprimer le compte"
        message={`Supprimer le compte télésurveillance « ${deletion.target?.nom ?? ''} » ?`}
        {...deletion.dialog}
      />
    </TitledScreen>
  );
}
