import type { Client, Interlocuteur, SiteWithInstallations } from '@fsm/contracts';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { RowAction } from '../../../components/ui/row-action';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteConfirm } from '../../../lib/use-delete-confirm';
import { CLIENT_MESSAGES } from '../api/client-messages';
import { useDeleteInterlocuteur } from '../api/delete-interlocuteur';
import { useClientInterlocuteurs } from '../api/get-client-interlocuteurs';
import { useClientSites } from '../api/get-client-sites';
import { ContactForm } from './contact-form';

/** Names of the sites and installations a contact answers for, from the answer or else from the client's sites. */
function affectationNames(contact: Interlocuteur, sites: readonly SiteWithInstallations[]): { sites: string[]; installations: string[] } {
  const siteName = new Map(sites.map((s) => [s.id, s.nom]));
  const installationName = new Map(sites.flatMap((s) => s.installations.map((i) => [i.id, i.nom] as const)));
  const names = (niveau: 'site' | 'installation', lookup: Map<string, string>) =>
    contact.affectations.filter((a) => a.niveau === niveau).map((a) => lookup.get(a.niveau_id) ?? '—');
  return {
    sites: contact.sites_affectes?.map((s) => s.nom) ?? names('site', siteName),
    installations: contact.installations_affectees?.map((i) => i.nom) ?? names('installation', installationName),
  };
}

type View = { kind: 'list' } | { kind: 'form'; contact: Interlocuteur | null };

/** The client's contacts in a side panel (§2): list, add, edit and delete, with their assignments. */
export function ContactsPanel({ client, canEdit, onClose }: { client: Client; canEdit: boolean; onClose: () => void }) {
  const toast = useToast();
  const contacts = useClientInterlocuteurs(client.id);
  const sites = useClientSites(client.id);
  const remove = useDeleteInterlocuteur();
  const [view, setView] = useState<View>({ kind: 'list' });
  const siteList = sites.data ?? [];

  const deletion = useDeleteConfirm({
    remove: (contact: Interlocuteur) => remove.mutateAsync({ id: contact.id, clientId: client.id }),
    done: () => toast.show('Interlocuteur supprimé.', { tone: 'success' }),
    failureMessage: (error) => errorMessage(error, CLIENT_MESSAGES.contactDeleteError),
  });

  return (
    <Dialog open title={`Interlocuteurs — ${client.nom}`} onClose={onClose} className="dialog--side">
      {view.kind === 'form' ? (
        <ContactForm clientId={client.id} contact={view.contact} sites={siteList} onDone={() => setView({ kind: 'list' })} />
      ) : (
        <>
          {canEdit ? (
            <button type="button" className="btn btn--primary" onClick={() => setView({ kind: 'form', contact: null })}>
              + Ajouter un interlocuteur
            </button>
          ) : null}
          {contacts.isError ? (
            <Banner tone="error">{CLIENT_MESSAGES.contactsLoadError}</Banner>
          ) : contacts.isPending ? (
            <p className="muted" role="status">
              Chargement…
            </p>
          ) : (contacts.data ?? []).length === 0 ? (
            <p className="muted">Aucun interlocuteur pour ce client.</p>
          ) : (
            <ul className="contact-list">
              {(contacts.data ?? []).map((contact) => {
                const names = affectationNames(contact, siteList);
                const fullName = `${contact.prenom} ${contact.nom}`;
                return (
                  <li key={contact.id} className="contact-card">
                    <div className="contact-card__head">
                      <strong>{fullName}</strong>
                      {contact.fonction ? <span className="muted">{contact.fonction}</span> : null}
                    </div>
                    <div className="contact-card__lines">
                      {contact.telephone ? <a href={`tel:${contact.telephone}`}>{contact.telephone}</a> : null}
                      {contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : null}
                    </div>
                    <p className="contact-card__affectations">
                      {contact.nb_sites} site{contact.nb_sites > 1 ? 's' : ''} · {contact.nb_installations} installation{contact.nb_installations > 1 ? 's' : ''}
                      {names.sites.length > 0 ? <span className="muted"> — Sites : {names.sites.join(', ')}</span> : null}
                      {names.installations.length > 0 ? <span className="muted"> — Installations : {names.installations.join(', ')}</span> : null}
                    </p>
                    {canEdit ? (
                      <div className="table-actions">
                        <RowAction label={`Modifier ${fullName}`} onClick={() => setView({ kind: 'form', contact })}>Modifier</RowAction>
                        <RowAction label={`Supprimer ${fullName}`} onClick={() => deletion.ask(contact)} danger>Supprimer</RowAction>
                      </div>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
      <ConfirmDialog
        title="Supprimer l'interlocuteur"
        message={`Supprimer l'interlocuteur « ${deletion.target ? `${deletion.target.prenom} ${deletion.target.nom}` : ''} » ?`}
        {...deletion.dialog}
      />
    </Dialog>
  );
}
