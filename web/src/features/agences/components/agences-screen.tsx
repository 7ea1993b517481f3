import { hasPermission, type Agence } from '@fsm/contracts';
import { useMemo, useState } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataTable } from '../../../components/ui/data-table';
import { RowAction } from '../../../components/ui/row-action';
import { SearchField } from '../../../components/ui/search-field';
import { TitledScreen } from '../../../components/ui/titled-screen';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { matchesSearch } from '../../../lib/text-search';
import { useDeleteConfirm } from '../../../lib/use-delete-confirm';
import { AGENCE_MESSAGES, agenceErrorMessage } from '../api/agence-errors';
import { useDeleteAgence } from '../api/delete-agence';
import { useAgences } from '../api/get-agences';
import { AgenceFormDialog } from './agence-form-dialog';

type Editing = { agence: Agence | null } | null;

/**
 * /agences (management §2): a searchable table, add/edit with the week's
 * hours, delete after confirmation. Editing needs agences.edit (admin_plus
 * always); creating is admin_plus's (docs/api-additions.md: a new agency
 * would be outside anybody else's scope).
 */
export function AgencesScreen() {
  const user = useCurrentUser();
  const canEdit = hasPermission(user, 'agences.edit');
  const canCreate = canEdit && user.role === 'admin_plus';
  const toast = useToast();
  const agences = useAgences();
  const remove = useDeleteAgence();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(null);

  const rows = useMemo(
    () => (agences.data ?? []).filter((a) => matchesSearch(search, a.nom, a.adresse, a.cp_postal, a.ville, a.telephone)),
    [agences.data, search],
  );

  const deletion = useDeleteConfirm({
    remove: (agence: Agence) => remove.mutateAsync(agence.id),
    done: () => toast.show('Agence supprimée.', { tone: 'success' }),
    failureMessage: (error) => agenceErrorMessage(error, AGENCE_MESSAGES.deleteError),
  });

  return (
    <TitledScreen title="Agences" action={canCreate ? { label: '+ Ajouter une agence', onClick: () => setEditing({ agence: null }) } : null}>
      <div className="toolbar">
        <SearchField label="Rechercher une agence" value={search} onChange={setSearch} placeholder="Nom, ville, code postal…" />
      </div>
      {agences.isError ? <Banner tone="error">{errorMessage(agences.error, AGENCE_MESSAGES.loadError)}</Banner> : null}
      <div className="table-wrap">
        <DataTable
          caption="Liste des agences"
          headers={['Nom', 'Adresse', 'Code postal', 'Ville', 'Téléphone', canEdit && 'Actions']}
          pending={agences.isPending}
          isEmpty={rows.length === 0}
          emptyText={search ? 'Aucune agence ne correspond à la recherche.' : 'Aucune agence.'}
        >
          {rows.map((agence) => (
            <tr key={agence.id}>
              <th scope="row">{agence.nom}</th>
              <td>{agence.adresse}</td>
              <td>{agence.cp_postal}</td>
              <td>{agence.ville}</td>
              <td>{agence.telephone}</td>
              {canEdit ? (
                <td>
                  <div className="table-actions">
                    <RowAction label={`Modifier ${agence.nom}`} onClick={() => setEditing({ agence })}>Modifier</RowAction>
                    <RowAction label={`Supprimer ${agence.nom}`} onClick={() => deletion.ask(agence)} danger>Supprimer</RowAction>
                  </div>
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      </div>
      {editing ? <AgenceFormDialog agence={editing.agence} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        title="Supprimer l'agence"
        message={`Supprimer l'agence « ${deletion.target?.nom ?? ''} » ?`}
        {...deletion.dialog}
      />
    </TitledScreen>
  );
}
