import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteEvent } from '@fsm/contracts';
import type { Projector } from '../../projector.js';
import { agence, at, client, installation, metier, site as siteAt } from '../../test-support/management-events.js';
import { expectSameRows, useReadModelHarness, withoutVersions } from '../../test-support/read-model-harness.js';
import { agencesProjector } from '../agences/agences-projector.js';
import type { Queryable } from '../queryable.js';
import { clientsProjector } from '../clients/clients-projector.js';
import { installationsProjector } from '../installations/installations-projector.js';
import { listInstallationsBySite } from '../installations/installations-queries.js';
import { metiersProjector } from '../metiers/metiers-projector.js';
import { sitesProjector } from './sites-projector.js';
import { clientHasSites, findSite, listSitesByClient, listSitesWithInstallations } from './sites-queries.js';

const projectors: Projector[] = [agencesProjector, clientsProjector, sitesProjector, metiersProjector, installationsProjector];
// The harness waits for each append's own position and replays through the real projectors.
const h = useReadModelHarness('rm_sites', projectors);
const { given, rebuild, redeliver } = h;

/** A site whose address starts with its name, so the lists show which site an address belongs to. */
const site = (id: string, clientId: string, nom: string, type?: 'SiteCreated' | 'SiteUpdated'): SiteEvent => siteAt(id, clientId, nom, type, `${nom}, 4 quai Rambaud`);

const table = () => h.selectAll('rm.sites');

describe('sites read model', () => {
  const lyon = randomUUID();
  const paris = randomUUID();
  const ssi = randomUUID();
  const [acme, boulangerie, zeta, doomed] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const [usine, entrepot, fournil, removed, doomedSite] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const [centrale, extincteurs, desenfumage, doomedInstallation] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const streams = [
    ...[acme, boulangerie, zeta, doomed].map((id) => `client-${id}`),
    ...[usine, entrepot, fournil, removed, doomedSite].map((id) => `site-${id}`),
    ...[centrale, extincteurs, desenfumage, doomedInstallation].map((id) => `installation-${id}`),
  ];

  beforeAll(async () => {
    await given(`agence-${lyon}`, [agence(lyon, 'Lyon')]);
    await given(`agence-${paris}`, [agence(paris, 'Paris')]);
    await given('metiers-catalogue', [metier(ssi, 'SSI', { ordre: 1, delai_inter: 4 })]);
    await given(`client-${acme}`, [client(acme, 'ACME', lyon)]);
    await given(`client-${boulangerie}`, [client(boulangerie, 'Boulangerie', lyon)]);
    await given(`client-${zeta}`, [client(zeta, 'Zeta', paris)]);
    await given(`client-${doomed}`, [client(doomed, 'Condamné', lyon)]);
    await given(`site-${usine}`, [site(usine, acme, 'Usine')]);
    await given(`site-${entrepot}`, [site(entrepot, acme, 'Dépôt'), site(entrepot, acme, 'Entrepôt', 'SiteUpdated')]);
    await given(`site-${fournil}`, [site(fournil, boulangerie, 'Fournil')]);
    await given(`site-${removed}`, [site(removed, acme, 'Ancien site'), { type: 'SiteDeleted', data: { siteId: removed, deletedAt: at } }]);
    await given(`site-${doomedSite}`, [site(doomedSite, doomed, 'Site condamné')]);
    await given(`installation-${centrale}`, [installation(centrale, usine, 'SSI centrale', ssi)]);
    await given(`installation-${extincteurs}`, [installation(extincteurs, usine, 'Extincteurs', ssi)]);
    await given(`installation-${desenfumage}`, [installation(desenfumage, entrepot, 'Désenfumage', ssi)]);
    await given(`installation-${doomedInstallation}`, [installation(doomedInstallation, doomedSite, 'Alarme', ssi)]);
  });

  it('lists a client live sites by name, shaped as the API answers', async () => {
    expect(await listSitesByClient(h.pool, acme)).toEqual([
      { id: entrepot, nom: 'Entrepôt', adresse: 'Entrepôt, 4 quai Rambaud', ville: 'Lyon', code_postal: '69002', client_id: acme, version: 1 },
      { id: usine, nom: 'Usine', adresse: 'Usine, 4 quai Rambaud', ville: 'Lyon', code_postal: '69002', client_id: acme, version: 0 },
    ]);
    expect(await listSitesByClient(h.pool, acme, [paris])).toEqual([]);
    expect((await listSitesByClient(h.pool, acme, [lyon])).map((row) => row.id)).toEqual([entrepot, usine]);
  });

  it('gives each site its installations', async () => {
    const sites = await listSitesWithInstallations(h.pool, acme);
    expect(sites.map((row) => [row.nom, row.installations.map((i) => i.nom)])).toEqual([
      ['Entrepôt', ['Désenfumage']],
      ['Usine', ['Extincteurs', 'SSI centrale']],
    ]);
    expect(sites[1]?.installations[0]).toEqual({
      id: extincteurs,
      nom: 'Extincteurs',
      id_metier: ssi,
      metier_nom: 'SSI',
      description: 'Extincteurs du bâtiment',
      delai: 4,
      astreinte: 0,
      site_id: usine,
      version: 0,
    });
    expect(await listSitesWithInstallations(h.pool, boulangerie)).toEqual([expect.objectContaining({ id: fournil, installations: [] })]);
  });

  it('finds a live site with its agency, within scope', async () => {
    expect(await findSite(h.pool, usine)).toMatchObject({ id: usine, client_id: acme, client_nom: 'ACME', agence_id: lyon });
    expect(await findSite(h.pool, usine, [paris])).toBeNull();
    expect(await findSite(h.pool, removed)).toBeNull();
    expect(await clientHasSites(h.pool, acme)).toBe(true);
    expect(await clientHasSites(h.pool, zeta)).toBe(false);
  });

  it('follows a client to another agency and a site to another client', async () => {
    await given(`client-${boulangerie}`, [client(boulangerie, 'Boulangerie', paris, 'ClientUpdated')]);
    expect(await findSite(h.pool, fournil)).toMatchObject({ agence_id: paris });
    expect(await findSite(h.pool, fournil, [lyon])).toBeNull();
    expect((await h.pool.query('SELECT agence_id FROM rm.sites WHERE id = $1', [fournil])).rows).toEqual([{ agence_id: paris }]);

    await given(`site-${fournil}`, [site(fournil, zeta, 'Fournil', 'SiteUpdated')]);
    expect(await listSitesByClient(h.pool, boulangerie)).toEqual([]);
    expect((await listSitesByClient(h.pool, zeta)).map((row) => row.id)).toEqual([fournil]);
    expect(await findSite(h.pool, fournil)).toMatchObject({ client_id: zeta, client_nom: 'Zeta', agence_id: paris });
  });

  it('hides the sites and installations of a deleted client', async () => {
    expect(await findSite(h.pool, doomedSite)).not.toBeNull();
    await given(`client-${doomed}`, [{ type: 'ClientDeleted', data: { clientId: doomed, deletedAt: at } }]);
    expect(await listSitesByClient(h.pool, doomed)).toEqual([]);
    expect(await listSitesWithInstallations(h.pool, doomed)).toEqual([]);
    expect(await findSite(h.pool, doomedSite)).toBeNull();
    expect(await clientHasSites(h.pool, doomed)).toBe(false);
    expect(await listInstallationsBySite(h.pool, doomedSite)).toEqual([]);
  });

  it('changes nothing when the same event is appended again or old events are delivered late', async () => {
    await given(`client-${acme}`, [client(acme, 'ACME', paris, 'ClientUpdated'), client(acme, 'ACME', lyon, 'ClientUpdated')]);
    expect(await findSite(h.pool, usine)).toMatchObject({ agence_id: lyon });
    const before = await listSitesWithInstallations(h.pool, acme);
    await given(`site-${entrepot}`, [site(entrepot, acme, 'Entrepôt', 'SiteUpdated')]);
    const after = await listSitesWithInstallations(h.pool, acme);
    expect(withoutVersions(after)).toEqual(withoutVersions(before));
    expect(after.find((row) => row.id === entrepot)?.version).toBe(2);
    await expectSameRows(table, () => redeliver(streams));
  });

  it('applied as one batch, projector after projector, copies what one event at a time copies', async () => {
    // The runner gives each projector its share of a batch in registration
    // order: a site or an installation then reads its client as it stands after
    // the whole batch, here already moved to Lyon by a later event.
    const [movedClient, movedSite, movedInstallation] = [randomUUID(), randomUUID(), randomUUID()];
    const ownStreams = [`client-${movedClient}`, `site-${movedSite}`, `installation-${movedInstallation}`];
    // Built live, one append (one batch) at a time.
    await given(ownStreams[0]!, [client(movedClient, 'Déménageur', paris)]);
    await given(ownStreams[1]!, [site(movedSite, movedClient, 'Halle')]);
    await given(ownStreams[2]!, [installation(movedInstallation, movedSite, 'Désenfumage halle', ssi)]);
    await given(ownStreams[0]!, [client(movedClient, 'Déménageur', lyon, 'ClientUpdated')]);
    const rows = async (db: Queryable) => ({
      clients: (await db.query('SELECT * FROM rm.clients WHERE id = $1', [movedClient])).rows,
      sites: (await db.query('SELECT * FROM rm.sites WHERE id = $1', [movedSite])).rows,
      installations: (await db.query('SELECT * FROM rm.installations WHERE id = $1', [movedInstallation])).rows,
    });
    const live = await rows(h.pool);
    expect(live.installations).toEqual([expect.objectContaining({ agence_id: lyon, client_revision: 1 })]);

    const log = (await Promise.all(ownStreams.map((stream) => h.store.readStream(stream)))).flat().sort((a, b) => h.store.comparePositions(a.position, b.position));
    const tx = await h.pool.connect();
    try {
      await tx.query('BEGIN');
      await tx.query('DELETE FROM rm.installations WHERE id = $1', [movedInstallation]);
      await tx.query('DELETE FROM rm.sites WHERE id = $1', [movedSite]);
      await tx.query('DELETE FROM rm.clients WHERE id = $1', [movedClient]);
      for (const projector of projectors) await projector.apply(tx, log.filter((event) => projector.handles.includes(event.type)));
      expect(await rows(tx)).toEqual(live);
    } finally {
      await tx.query('ROLLBACK');
      tx.release();
    }
  });

  it('gives the same rows after a rebuild', () => expectSameRows(table, rebuild));
});
