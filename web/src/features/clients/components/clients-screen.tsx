import { CLIENTS_PAGE_SIZE, hasPermission, type Client } from '@fsm/contracts';
import { useEffect, useState } from 'react';
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
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useDeleteConfirm } from '../../../lib/use-delete-confirm';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { CLIENT_MESSAGES } from '../api/client-messages';
import { useDeleteClient } from '../api/delete-client';
import { useDeleteInstallation } from '../api/delete-installation';
import { useDeleteSite } from '../api/delete-site';
import { useClientsPage } from '../api/get-clients-page';
import { ClientDetail, type DetailAction } from './client-detail';
import { ClientFormDialog } from './client-form-dialog';
import { ContactsPanel } from './contacts-panel';
import { InstallationFormDialog } from './installation-form-dialog';
import { InstallationQrDialog } from '../../qrcodes/components/installation-qr-dialog';
import { SiteFormDialog } from './site-form-dialog';

/** A stable empty page while loading, so the effect below does not run on every render. */
const NO_CLIENTS: readonly Client[] = [];

type Modal =
  | { kind: 'client'; client: Client | null }
  | { kind: 'contacts'; client: Client }
  | Exclude<DetailAction, { kind: 'delete-site' } | { kind: 'delete-installation' }>;

type Deleting =
  | { kind: 'client'; id: string; nom: string }
  | { kind: 'site'; id: string; nom: string }
  | { kind: 'installation'; id: string; nom: string };

const DELETE_TEXTS: Record<Deleting['kind'], { title: string; message: (nom: string) => string; done: string }> = {
  client: { title: 'Supprimer le client', message: (nom) => `Supprimer le client « ${nom} » et tous ses sites ?`, done: 'Client supprimé.' },
  site: { title: 'Supprimer le site', message: (nom) => `Supprimer le site « ${nom} » et ses installations ?`, done: 'Site supprimé.' },
  installation: { title: "Supprimer l'installation", message: (nom) => `Supprimer l'installation « ${nom} » ?`, done: 'Installation supprimée.' },
};

/**
 * /clients (management §2): clients 10 a page with a search box; a client's
 * sites on the left and the chosen site's installations on the right; modals
 * for each add/edit, the installations' QR codes and the client's contacts;
 * a confirmation before every delete. Changes need clients.edit (admin_plus
 * always holds it).
 */
export function ClientsScreen() {
  const me = useCurrentUser();
  const toast = useToast();
  const canEdit = hasPermission(me, 'clients.edit');
  const showAgence = me.role === 'admin_plus';
  const { search, searchFor, page, setPage } = usePagedSearch();
  const debouncedSearch = useDebouncedValue(search, 300);
  const clients = useClientsPage({ page, search: debouncedSearch });
  const [selected, setSelected] = useState<Client | null>(null);
  const [modal, setModal] = useState<Modal | null>(null);
  const deleteClient = useDeleteClient();
  const deleteSite = useDeleteSite();
  const deleteInstallation = useDeleteInstallation(selected?.id ?? '');

  const items = clients.data?.items ?? NO_CLIENTS;
  const pageCount = pageCountOf(clients.data?.total ?? 0, CLIENTS_PAGE_SIZE);
  useEffect(() => {
    if (clients.data && page > pageCount) setPage(pageCount);
  }, [clients.data, page, pageCount, setPage]);
  // Keep the open client in step with what another user changed.
  useEffect(() => {
    const fresh = selected ? items.find((c) => c.id === selected.id) : undefined;
    if (fresh && fresh !== selected && JSON.stringify(fresh) !== JSON.stringify(selected)) setSelected(fresh);
  }, [items, selected]);

  const deletion = useDeleteConfirm({
    remove: async (deleting: Deleting) => {
      if (deleting.kind === 'client') await deleteClient.mutateAsync(deleting.id);
      else if (deleting.kind === 'site') await deleteSite.mutateAsync({ id: deleting.id, clientId: selected?.id ?? '' });
      else await deleteInstallation.mutateAsync(deleting.id);
    },
    done: (deleting) => {
      toast.show(DELETE_TEXTS[deleting.kind].done, { tone: 'success' });
      if (deleting.kind === 'client' && selected?.id === deleting.id) setSelected(null);
    },
    failureMessage: (error) => errorMessage(error, CLIENT_MESSAGES.deleteError),
  });

  const onDetailAction = (action: DetailAction) => {
    if (action.kind === 'delete-site') deletion.ask({ kind: 'site', id: action.site.id, nom: action.site.nom });
    else if (action.kind === 'delete-installation') deletion.ask({ kind: 'installation', id: action.installation.id, nom: action.installation.nom });
    else setModal(action);
  };

  return (
    <TitledScreen title="Clients" action={canEdit ? { label: '+ Ajouter un client', onClick: () => setModal({ kind: 'client', client: null }) } : null}>
      <div className="toolbar">
        <SearchField label="Rechercher un client" value={search} placeholder="Nom du client…" onChange={searchFor} />
        {clients.data ? (
          <span className="muted toolbar__count" aria-live="polite">
            {clients.data.total} client{clients.data.total > 1 ? 's' : ''}
          </span>
        ) : null}
      </div>
      {clients.isError ? <Banner tone="error">{errorMessage(clients.error, CLIENT_MESSAGES.loadError)}</Banner> : null}
      <div className="table-wrap">
        <DataTable
          caption="Liste des clients"
          headers={['Nom', 'Adresse', 'Code postal', 'Ville', showAgence && 'Agence', 'Actions']}
          modifiers="data-table--selectable"
          pending={clients.isPending}
          refreshing={clients.isFetching}
          isEmpty={items.length === 0}
          emptyText={debouncedSearch ? 'Aucun client ne correspond à la recherche.' : 'Aucun client.'}
        >
          {items.map((client) => (
            <tr key={client.id} aria-selected={client.id === selected?.id} className={client.id === selected?.id ? 'is-selected' : undefined}>
              <th scope="row">
                <button type="button" className="link-button" aria-pressed={client.id === selected?.id} onClick={() => setSelected(client)}>
                  {client.nom}
                </button>
              </th>
              <td>{client.adresse}</td>
              <td>{client.code_postal}</td>
              <td>{client.ville}</td>
              {showAgence ? <td>{client.agence_nom ?? '—'}</td> : null}
              <td>
                <div className="table-actions">
                  <RowAction label={`Interlocuteurs de ${client.nom}`} onClick={() => setModal({ kind: 'contacts', client })}>Interlocuteurs</RowAction>
                  {canEdit ? (
                    <>
                      <RowAction label={`Modifier le client ${client.nom}`} onClick={() => setModal({ kind: 'client', client })}>Modifier</RowAction>
                      <RowAction label={`Supprimer le client ${client.nom}`} onClick={() => deletion.ask({ kind: 'client', id: client.id, nom: client.nom })} danger>Supprimer</RowAction>
                    </>
                  ) : null}
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
      <Pagination page={page} pageCount={pageCount} onPageChange={setPage} label="Pages des clients" />

      {selected ? <ClientDetail key={selected.id} client={selected} canEdit={canEdit} onAction={onDetailAction} /> : <p className="muted">Choisissez un client pour voir ses sites.</p>}

      {modal?.kind === 'client' ? <ClientFormDialog client={modal.client} onClose={() => setModal(null)} onSaved={(c) => modal.client && setSelected((s) => (s?.id === c.id ? c : s))} /> : null}
      {modal?.kind === 'contacts' ? <ContactsPanel client={modal.client} canEdit={canEdit} onClose={() => setModal(null)} /> : null}
      {selected && modal?.kind === 'add-site' ? <SiteFormDialog clientId={selected.id} site={null} onClose={() => setModal(null)} /> : null}
      {selected && modal?.kind === 'edit-site' ? <SiteFormDialog clientId={selected.id} site={modal.site} onClose={() => setModal(null)} /> : null}
      {selected && modal?.kind === 'add-installation' ? (
        <InstallationFormDialog clientId={selected.id} siteId={modal.site.id} installation={null} onClose={() => setModal(null)} />
      ) : null}
      {selected && modal?.kind === 'edit-installation' ? (
        <InstallationFormDialog clientId={selected.id} siteId={modal.site.id} installation={modal.installation} onClose={() => setModal(null)} />
      ) : null}
      {selected && modal?.kind === 'qr' ? (
        <InstallationQrDialog
          context={{ installation: modal.installation, siteNom: modal.site.nom, clientNom: selected.nom, agenceNom: selected.agence_nom ?? me.agence_nom }}
          canEdit={canEdit}
          onClose={() => setModal(null)}
        />
      ) : null}
      <ConfirmDialog
        title={deletion.target ? DELETE_TEXTS[deletion.target.kind].title : ''}
        message={deletion.target ? DELETE_TEXTS[deletion.target.kind].message(deletion.target.nom) : ''}
        {...deletion.dialog}
      />
    </TitledScreen>
  );
}
