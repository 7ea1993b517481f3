import { ROLE_LABELS, USERS_PAGE_SIZE, canAssignRole, hasPermission, type Role, type User } from '@fsm/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataTable } from '../../../components/ui/data-table';
import { Pagination, pageCountOf } from '../../../components/ui/pagination';
import { RowAction } from '../../../components/ui/row-action';
import { SearchField } from '../../../components/ui/search-field';
import { TitledScreen } from '../../../components/ui/titled-screen';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { matchesSearch } from '../../../lib/text-search';
import { useDeleteConfirm } from '../../../lib/use-delete-confirm';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';
import { USER_MESSAGES } from '../api/user-messages';
import { PermissionsDialog } from './permissions-dialog';
import { UserCreateDialog } from './user-create-dialog';
import { UserEditRow } from './user-edit-row';
import { picksAgence } from './user-form';

/**
 * /users (management §2): a searchable table, 10 a page, with add (modal),
 * inline edit, permissions and delete. admin_plus sees the agency column and
 * picker. Outside admin_plus only technicians (and oneself) can be managed,
 * as the server enforces.
 */
export function UsersScreen() {
  const me = useCurrentUser();
  const toast = useToast();
  const canEdit = hasPermission(me, 'users.edit');
  const canSeePermissions = hasPermission(me, 'users.view') || hasPermission(me, 'users.permissions');
  const withAgence = picksAgence(me);
  const users = useUsers();
  const remove = useDeleteUser();
  const { search, searchFor, page, setPage } = usePagedSearch();
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [permissionsOf, setPermissionsOf] = useState<User | null>(null);

  const filtered = useMemo(
    () => (users.data ?? []).filter((u) => matchesSearch(search, u.nom, u.prenom, `${u.prenom} ${u.nom}`, u.email, u.telephone, u.agence_nom)),
    [users.data, search],
  );
  const pageCount = pageCountOf(filtered.length, USERS_PAGE_SIZE);
  useEffect(() => {
    if (page > pageCount) setPage(pageCount);
  }, [page, pageCount, setPage]);
  const rows = filtered.slice((page - 1) * USERS_PAGE_SIZE, page * USERS_PAGE_SIZE);

  const manageable = (target: User) => me.role === 'admin_plus' || target.id === me.id || canAssignRole(me, target.role);

  const deletion = useDeleteConfirm({
    remove: (user: User) => remove.mutateAsync(user.id),
    done: () => toast.show('Utilisateur supprimé.', { tone: 'success' }),
    failureMessage: (error) => errorMessage(error, USER_MESSAGES.deleteError),
  });

  return (
    <TitledScreen title="Utilisateurs" action={canEdit ? { label: '+ Ajouter un utilisateur', onClick: () => setAdding(true) } : null}>
      <div className="toolbar">
        <SearchField label="Rechercher un utilisateur" value={search} placeholder="Nom, prénom, email…" onChange={searchFor} />
      </div>
      {users.isError ? <Banner tone="error">{errorMessage(users.error, USER_MESSAGES.loadError)}</Banner> : null}
      <div className="table-wrap">
        <DataTable
          caption="Liste des utilisateurs"
          headers={['Nom', 'Prénom', 'Email', 'Téléphone', 'Rôle', withAgence && 'Agence', 'Actions']}
          pending={users.isPending}
          isEmpty={rows.length === 0}
          emptyText={search ? 'Aucun utilisateur ne correspond à la recherche.' : 'Aucun utilisateur.'}
        >
          {rows.map((user) =>
            editingId === user.id ? (
              <UserEditRow key={user.id} user={user} onDone={() => setEditingId(null)} />
            ) : (
              <tr key={user.id}>
                <th scope="row">{user.nom}</th>
                <td>{user.prenom}</td>
                <td>{user.email}</td>
                <td>{user.telephone ?? '—'}</td>
                <td>{ROLE_LABELS[user.role as Role] ?? user.role}</td>
                {withAgence ? <td>{user.agence_nom ?? '—'}</td> : null}
                <td>
                  <div className="table-actions">
                    {canEdit && manageable(user) ? (
                      <RowAction label={`Modifier ${user.prenom} ${user.nom}`} onClick={() => setEditingId(user.id)} disabled={editingId !== null}>Modifier</RowAction>
                    ) : null}
                    {canSeePermissions ? (
                      <RowAction label={`Permissions de ${user.prenom} ${user.nom}`} onClick={() => setPermissionsOf(user)}>Permissions</RowAction>
                    ) : null}
                    {canEdit && manageable(user) && user.id !== me.id ? (
                      <RowAction label={`Supprimer ${user.prenom} ${user.nom}`} onClick={() => deletion.ask(user)} danger>Supprimer</RowAction>
                    ) : null}
                  </div>
                </td>
              </tr>
            ),
          )}
        </DataTable>
      </div>
      <Pagination page={page} pageCount={pageCount} onPageChange={setPage} label="Pages des utilisateurs" />
      {adding ? <UserCreateDialog onClose={() => setAdding(false)} /> : null}
      {permissionsOf ? <PermissionsDialog target={permissionsOf} onClose={() => setPermissionsOf(null)} /> : null}
      <ConfirmDialog
        title="Supprimer l'utilisateur"
        message={`Supprimer l'utilisateur « ${deletion.target ? `${deletion.target.prenom} ${deletion.target.nom}` : ''} » ?`}
        {...deletion.dialog}
      />
    </TitledScreen>
  );
}
