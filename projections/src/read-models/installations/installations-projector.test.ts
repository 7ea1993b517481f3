import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { agence, at, client, installation, metier, site } from '../../test-support/management-events.js';
import { expectSameRows, useReadModelHarness, withoutVersions } from '../../test-support/read-model-harness.js';
import { agencesProjector } from '../agences/agences-projector.js';
import { clientsProjector } from '../clients/clients-projector.js';
import { metiersProjector } from '../metiers/metiers-projector.js';
import { sitesProjector } from '../sites/sites-projector.js';
import { installationsProjector } from './installations-projector.js';
import { findInstallation, isMetierUsed, listInstallationsByClient, listInstallationsBySite, siteHasInstallations } from './installations-queries.js';

// The harness waits for each append's own position and replays through the real projectors.
const h = useReadModelHarness('rm_installations', [agencesProjector, clientsProjector, sitesProjector, metiersProjector, installationsProjector]);
const { given, rebuild, redeliver } = h;

const table = () => h.selectAll('rm.installations');

describe('installations read model', () => {
  const lyon = randomUUID();
  const paris = randomUUID();
  const [ssi, extinction, unused, hiddenOnly] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const [acme, zeta, doomed] = [randomUUID(), randomUUID(), randomUUID()];
  const [usine, entrepot, bureaux, doomedSite] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const [centrale, extincteurs, sprinklers, removed, onDeletedSite, onDeletedClient] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const streams = [
    'metiers-catalogue',
    ...[acme, zeta, doomed].map((id) => `client-${id}`),
    ...[usine, entrepot, bureaux, doomedSite].map((id) => `site-${id}`),
    ...[centrale, extincteurs, sprinklers, removed, onDeletedSite, onDeletedClient].map((id) => `installation-${id}`),
  ];

  beforeAll(async () => {
    await given(`agence-${lyon}`, [agence(lyon, 'Lyon')]);
    await given(`agence-${paris}`, [agence(paris, 'Paris')]);
    await given('metiers-catalogue', [
      metier(ssi, 'SSI', { delai_inter: 4, HO_stats: 1 }),
      metier(extinction, 'Extinction', { delai_inter: null, HO_stats: 0 }),
      metier(unused, 'Plomberie', { delai_inter: 8, HO_stats: 0 }),
      metier(hiddenOnly, 'Désenfumage', { delai_inter: 8, HO_stats: 0 }),
    ]);
    await given(`client-${acme}`, [client(acme, 'ACME', lyon)]);
    await given(`client-${zeta}`, [client(zeta, 'Zeta', paris)]);
    await given(`client-${doomed}`, [client(doomed, 'Condamné', lyon)]);
    await given(`site-${usine}`, [site(usine, acme, 'Usine')]);
    await given(`site-${entrepot}`, [site(entrepot, acme, 'Entrepôt')]);
    await given(`site-${bureaux}`, [site(bureaux, zeta, 'Bureaux')]);
    await given(`site-${doomedSite}`, [site(doomedSite, acme, 'Site condamné')]);
    await given(`installation-${centrale}`, [installation(centrale, usine, 'SSI centrale', ssi, { delai: 2, astreinte: 1 })]);
    await given(`installation-${extincteurs}`, [installation(extincteurs, usine, 'Extincteurs', extinction)]);
    await given(`installation-${sprinklers}`, [installation(sprinklers, bureaux, 'Sprinklers', extinction)]);
    await given(`installation-${removed}`, [installation(removed, usine, 'Ancienne', ssi), { type: 'InstallationDeleted', data: { installationId: removed, deletedAt: at } }]);
    await given(`installation-${onDeletedSite}`, [installation(onDeletedSite, doomedSite, 'Volets', hiddenOnly)]);
    await given(`site-${doomedSite}`, [{ type: 'SiteDeleted', data: { siteId: doomedSite, deletedAt: at } }]);
  });

  it('lists a site live installations by name with their métier name', async () => {
    expect(await listInstallationsBySite(h.pool, usine)).toEqual([
      { id: extincteurs, nom: 'Extincteurs', id_metier: extinction, metier_nom: 'Extinction', description: 'Extincteurs du bâtiment', delai: 4, astreinte: 0, site_id: usine, version: 0 },
      { id: centrale, nom: 'SSI centrale', id_metier: ssi, metier_nom: 'SSI', description: 'SSI centrale du bâtiment', delai: 2, astreinte: 1, site_id: usine, version: 0 },
    ]);
    expect(await listInstallationsBySite(h.pool, usine, [paris])).toEqual([]);
    expect((await listInstallationsByClient(h.pool, acme)).map((row) => row.id)).toEqual([extincteurs, centrale]);
    expect(await siteHasInstallations(h.pool, usine)).toBe(true);
    expect(await siteHasInstallations(h.pool, entrepot)).toBe(false);
  });

  it('finds an installation with everything opening a ticket needs', async () => {
    expect(await findInstallation(h.pool, centrale)).toEqual({
      id: centrale,
      nom: 'SSI centrale',
      id_metier: ssi,
      metier_nom: 'SSI',
      description: 'SSI centrale du bâtiment',
      delai: 2,
      astreinte: 1,
      site_id: usine,
      version: 0,
      site_nom: 'Usine',
      site_adresse: '4 quai Rambaud',
      site_code_postal: '69002',
      site_ville: 'Lyon',
      client_id: acme,
      client_nom: 'ACME',
      agence_id: lyon,
      agence_nom: 'Lyon',
      metier_delai_inter: 4,
      metier_ho_stats: 1,
    });
    expect(await findInstallation(h.pool, centrale, [paris])).toBeNull();
    expect(await findInstallation(h.pool, centrale, [lyon])).not.toBeNull();
    expect(await findInstallation(h.pool, extincteurs)).toMatchObject({ metier_delai_inter: null, metier_ho_stats: 0 });
    expect(await findInstallation(h.pool, removed)).toBeNull();
  });

  it('keeps the métier name in step when the métier is renamed', async () => {
    await given('metiers-catalogue', [metier(ssi, 'Système de sécurité incendie', { delai_inter: 4, HO_stats: 1 }, 'MetierUpdated')]);
    expect((await listInstallationsBySite(h.pool, usine)).map((row) => row.metier_nom)).toEqual(['Extinction', 'Système de sécurité incendie']);
    expect(await findInstallation(h.pool, centrale)).toMatchObject({ metier_nom: 'Système de sécurité incendie' });
  });

  it('follows an installation to another site, a site to another client and a client to another agency', async () => {
    await given(`installation-${extincteurs}`, [installation(extincteurs, entrepot, 'Extincteurs', ssi, { type: 'InstallationUpdated', astreinte: 1 })]);
    expect((await listInstallationsBySite(h.pool, usine)).map((row) => row.id)).toEqual([centrale]);
    expect(await listInstallationsBySite(h.pool, entrepot)).toEqual([expect.objectContaining({ id: extincteurs, metier_nom: 'Système de sécurité incendie', astreinte: 1 })]);

    await given(`site-${entrepot}`, [site(entrepot, zeta, 'Entrepôt', 'SiteUpdated')]);
    expect(await findInstallation(h.pool, extincteurs)).toMatchObject({ client_id: zeta, client_nom: 'Zeta', agence_id: paris });
    expect((await listInstallationsByClient(h.pool, zeta)).map((row) => row.id)).toEqual([extincteurs, sprinklers]);

    await given(`client-${zeta}`, [client(zeta, 'Zeta', lyon, 'ClientUpdated')]);
    expect(await findInstallation(h.pool, sprinklers, [lyon])).toMatchObject({ agence_id: lyon, agence_nom: 'Lyon' });
    expect((await h.pool.query('SELECT DISTINCT agence_id FROM rm.installations WHERE client_id = $1', [zeta])).rows).toEqual([{ agence_id: lyon }]);
  });

  it('hides the installations of a deleted site or client, and only live installations use a métier', async () => {
    expect(await listInstallationsBySite(h.pool, doomedSite)).toEqual([]);
    expect(await findInstallation(h.pool, onDeletedSite)).toBeNull();
    expect(await isMetierUsed(h.pool, hiddenOnly)).toBe(false);
    expect(await isMetierUsed(h.pool, ssi)).toBe(true);
    expect(await isMetierUsed(h.pool, unused)).toBe(false);

    await given(`site-${usine}`, [site(usine, doomed, 'Usine', 'SiteUpdated')]);
    await given(`installation-${onDeletedClient}`, [installation(onDeletedClient, usine, 'Portes coupe-feu', unused)]);
    expect(await isMetierUsed(h.pool, unused)).toBe(true);
    await given(`client-${doomed}`, [{ type: 'ClientDeleted', data: { clientId: doomed, deletedAt: at } }]);
    expect(await listInstallationsBySite(h.pool, usine)).toEqual([]);
    expect(await listInstallationsByClient(h.pool, doomed)).toEqual([]);
    expect(await findInstallation(h.pool, centrale)).toBeNull();
    expect(await isMetierUsed(h.pool, unused)).toBe(false);
  });

  it('changes nothing when the same event is appended again or old events are delivered late', async () => {
    await given(`client-${zeta}`, [client(zeta, 'Zeta', paris, 'ClientUpdated'), client(zeta, 'Zeta', lyon, 'ClientUpdated')]);
    await given('metiers-catalogue', [metier(extinction, 'Extinction automatique', { delai_inter: null, HO_stats: 0 }, 'MetierUpdated'), metier(extinction, 'Extinction', { delai_inter: null, HO_stats: 0 }, 'MetierUpdated')]);
    await given(`site-${bureaux}`, [site(bureaux, acme, 'Bureaux', 'SiteUpdated'), site(bureaux, zeta, 'Bureaux', 'SiteUpdated')]);
    expect(await findInstallation(h.pool, sprinklers)).toMatchObject({ metier_nom: 'Extinction', agence_id: lyon, client_id: zeta });
    const before = await listInstallationsByClient(h.pool, zeta);
    await given(`installation-${extincteurs}`, [installation(extincteurs, entrepot, 'Extincteurs', ssi, { type: 'InstallationUpdated', astreinte: 1 })]);
    await given('metiers-catalogue', [metier(ssi, 'Système de sécurité incendie', { delai_inter: 4, HO_stats: 1 }, 'MetierUpdated')]);
    const after = await listInstallationsByClient(h.pool, zeta);
    expect(withoutVersions(after)).toEqual(withoutVersions(before));
    expect(after.find((row) => row.id === extincteurs)?.version).toBe(2);
    await expectSameRows(table, () => redeliver(streams));
  });

  it('gives the same rows after a rebuild', () => expectSameRows(table, rebuild));
});
