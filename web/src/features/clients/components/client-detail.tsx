import { formatInstallationDelai, type Client, type Installation, type Site, type SiteWithInstallations } from '@fsm/contracts';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { RowAction } from '../../../components/ui/row-action';
import { SkeletonCards } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { CLIENT_MESSAGES } from '../api/client-messages';
import { useClientSites } from '../api/get-client-sites';

export type DetailAction =
  | { kind: 'add-site' }
  | { kind: 'edit-site'; site: Site }
  | { kind: 'delete-site'; site: Site }
  | { kind: 'add-installation'; site: SiteWithInstallations }
  | { kind: 'edit-installation'; site: SiteWithInstallations; installation: Installation }
  | { kind: 'delete-installation'; installation: Installation }
  | { kind: 'qr'; site: SiteWithInstallations; installation: Installation };

/**
 * A client's sites on the left; the selected site's installations on the
 * right (§2). Keyed by the client, so another client starts with its own
 * sites and no selected site (§4).
 */
export function ClientDetail({ client, canEdit, onAction }: { client: Client; canEdit: boolean; onAction: (action: DetailAction) => void }) {
  const sites = useClientSites(client.id);
  const [siteId, setSiteId] = useState<string | null>(null);
  const site = sites.data?.find((s) => s.id === siteId) ?? null;

  return (
    <div className="master-detail" aria-label={`Sites et installations de ${client.nom}`} role="region">
      <section className="panel" aria-labelledby="sites-title">
        <div className="panel__header">
          <h2 id="sites-title">Sites — {client.nom}</h2>
          {canEdit ? (
            <button type="button" className="btn btn--small btn--primary" onClick={() => onAction({ kind: 'add-site' })}>
              + Ajouter un site
            </button>
          ) : null}
        </div>
        {sites.isError ? <Banner tone="error">{errorMessage(sites.error, CLIENT_MESSAGES.sitesLoadError)}</Banner> : null}
        {sites.isPending ? (
          <SkeletonCards count={2} />
        ) : (sites.data ?? []).length === 0 ? (
          <p className="muted">Aucun site pour ce client.</p>
        ) : (
          <ul className="select-list">
            {(sites.data ?? []).map((s) => (
              <li key={s.id} className={s.id === siteId ? 'select-list__item select-list__item--selected' : 'select-list__item'}>
                <button type="button" className="select-list__main" aria-pressed={s.id === siteId} onClick={() => setSiteId(s.id)}>
                  <span className="select-list__title">{s.nom}</span>
                  <span className="select-list__detail">
                    {s.adresse}, {s.code_postal} {s.ville} · {s.installations.length} installation{s.installations.length > 1 ? 's' : ''}
                  </span>
                </button>
                {canEdit ? (
                  <div className="table-actions">
                    <RowAction label={`Modifier le site ${s.nom}`} onClick={() => onAction({ kind: 'edit-site', site: s })}>Modifier</RowAction>
                    <RowAction label={`Supprimer le site ${s.nom}`} onClick={() => onAction({ kind: 'delete-site', site: s })} danger>Supprimer</RowAction>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="panel" aria-labelledby="installations-title">
        <div className="panel__header">
          <h2 id="installations-title">{site ? `Installations — ${site.nom}` : 'Installations'}</h2>
          {canEdit && site ? (
            <button type="button" className="btn btn--small btn--primary" onClick={() => onAction({ kind: 'add-installation', site })}>
              + Ajouter une installation
            </button>
          ) : null}
        </div>
        {!site ? (
          <p className="muted">Sélectionnez un site pour voir ses installations.</p>
        ) : site.installations.length === 0 ? (
          <p className="muted">Aucune installation sur ce site.</p>
        ) : (
          <ul className="installation-list">
            {site.installations.map((installation) => (
              <li key={installation.id} className="installation-card">
                <div className="installation-card__head">
                  <strong>{installation.nom}</strong>
                  {installation.metier_nom ? <span className="chip chip--neutral">{installation.metier_nom}</span> : null}
                  {installation.astreinte === 1 ? <span className="chip chip--warning">Astreinte</span> : null}
                </div>
                <p className="installation-card__delai">{formatInstallationDelai(installation.delai)}</p>
                <p className="installation-card__description">{installation.description}</p>
                <div className="table-actions">
                  <RowAction label={`QR codes de ${installation.nom}`} onClick={() => onAction({ kind: 'qr', site, installation })}>QR codes</RowAction>
                  {canEdit ? (
                    <>
                      <RowAction label={`Modifier l'installation ${installation.nom}`} onClick={() => onAction({ kind: 'edit-installation', site, installation })}>Modifier</RowAction>
                      <RowAction label={`Supprimer l'installation ${installation.nom}`} onClick={() => onAction({ kind: 'delete-installation', installation })} danger>Supprimer</RowAction>
                    </>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
