import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InterlocuteurEvent } from '@fsm/contracts';
import { agence, at, client, installation, metier, site } from '../../test-support/management-events.js';
import { expectSameRows, useReadModelHarness, withoutVersions } from '../../test-support/read-model-harness.js';
import { agencesProjector } from '../agences/agences-projector.js';
import { clientsProjector } from '../clients/clients-projector.js';
import { installationsProjector } from '../installations/installations-projector.js';
import { metiersProjector } from '../metiers/metiers-projector.js';
import { sitesProjector } from '../sites/sites-projector.js';
import { interlocuteursProjector } from './interlocuteurs-projector.js';
import {
  findInterlocuteur,
  listInterlocuteursByClient,
  listInterlocuteursByInstallation,
  listInterlocuteursBySite,
  listInterlocuteursBySiteOnly,
} from './interlocuteurs-queries.js';

// The harness waits for each append's own position and replays through the real projectors.
const h = useReadModelHarness('rm_interlocuteurs', [agencesProjector, clientsProjector, sitesProjector, metiersProjector, installationsProjector, interlocuteursProjector]);
const { given, rebuild, redeliver } = h;

function contact(
  id: string,
  clientId: string,
  prenom: string,
  nom: string,
  siteIds: string[],
  installationIds: string[],
  type: 'InterlocuteurCreated' | 'InterlocuteurUpdated' = 'InterlocuteurCreated',
): InterlocuteurEvent {
  const facts = { interlocuteurId: id, clientId, nom, prenom, fonction: 'Responsable sécurité', telephone: '0600000000', email: `${prenom.toLowerCase()}@acme.fr`, siteIds, installationIds };
  return type === 'InterlocuteurCreated' ? { type, data: { ...facts, createdAt: at } } : { type, data: { ...facts, updatedAt: at } };
}

const tables = async () => ({
  interlocuteurs: await h.selectAll('rm.interlocuteurs'),
  affectations: await h.selectAll('rm.interlocuteur_affectations', 'interlocuteur_id, niveau, niveau_id'),
});
const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

describe('interlocuteurs read model', () => {
  const [lyon, paris] = [randomUUID(), randomUUID()];
  const ssi = randomUUID();
  const [acme, doomed] = [randomUUID(), randomUUID()];
  const [usine, entrepot, doomedSite] = [randomUUID(), randomUUID(), randomUUID()];
  const [centrale, sprinklers, volets] = [randomUUID(), randomUUID(), randomUUID()];
  const [paul, marie, jean, zoe, gone, orphan] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const streams = [paul, marie, jean, zoe, gone, orphan].map((id) => `interlocuteur-${id}`);

  beforeAll(async () => {
    await given(`agence-${lyon}`, [agence(lyon, 'Lyon')]);
    await given('metiers-catalogue', [metier(ssi, 'SSI', { ordre: 1, delai_inter: 4 })]);
    await given(`client-${acme}`, [client(acme, 'ACME', lyon)]);
    await given(`client-${doomed}`, [client(doomed, 'Condamné', lyon)]);
    await given(`site-${usine}`, [site(usine, acme, 'Usine')]);
    await given(`site-${entrepot}`, [site(entrepot, acme, 'Entrepôt')]);
    await given(`site-${doomedSite}`, [site(doomedSite, doomed, 'Site condamné')]);
    await given(`installation-${centrale}`, [installation(centrale, usine, 'SSI centrale', ssi)]);
    await given(`installation-${sprinklers}`, [installation(sprinklers, usine, 'Sprinklers', ssi)]);
    await given(`installation-${volets}`, [installation(volets, entrepot, 'Volets', ssi)]);
    await given(`interlocuteur-${paul}`, [contact(paul, acme, 'Paul', 'Durand', [usine], [volets])]);
    await given(`interlocuteur-${marie}`, [contact(marie, acme, 'Marie', 'Durand', [], [centrale])]);
    await given(`interlocuteur-${jean}`, [contact(jean, acme, 'Jean', 'Bernard', [], [])]);
    await given(`interlocuteur-${zoe}`, [
      contact(zoe, acme, 'Zoé', 'Martin', [entrepot, usine], []),
      contact(zoe, acme, 'Zoé', 'Martin', [entrepot], [sprinklers], 'InterlocuteurUpdated'),
    ]);
    await given(`interlocuteur-${gone}`, [contact(gone, acme, 'Ancien', 'Contact', [usine], []), { type: 'InterlocuteurDeleted', data: { interlocuteurId: gone, deletedAt: at } }]);
    await given(`interlocuteur-${orphan}`, [contact(orphan, doomed, 'Orphelin', 'Contact', [doomedSite], [])]);
  });

  it('lists a client contacts by name with their affectations, counts and named sites and installations', async () => {
    const rows = await listInterlocuteursByClient(h.pool, acme);
    expect(rows.map((row) => `${row.nom} ${row.prenom}`)).toEqual(['Bernard Jean', 'Durand Marie', 'Durand Paul', 'Martin Zoé']);
    expect(rows[2]).toEqual({
      id: paul,
      client_id: acme,
      nom: 'Durand',
      prenom: 'Paul',
      fonction: 'Responsable sécurité',
      telephone: '0600000000',
      email: 'paul@acme.fr',
      affectations: [
        { niveau: 'site', niveau_id: usine },
        { niveau: 'installation', niveau_id: volets },
      ],
      nb_sites: 1,
      nb_installations: 1,
      sites_affectes: [{ id: usine, nom: 'Usine' }],
      installations_affectees: [{ id: volets, nom: 'Volets' }],
      version: 0,
    });
    expect(rows[0]).toMatchObject({ affectations: [], nb_sites: 0, nb_installations: 0, sites_affectes: [], installations_affectees: [] });
    expect(rows[3]).toMatchObject({ nb_sites: 1, nb_installations: 1, sites_affectes: [{ id: entrepot, nom: 'Entrepôt' }], installations_affectees: [{ id: sprinklers, nom: 'Sprinklers' }] });
    expect(await listInterlocuteursByClient(h.pool, acme, [paris])).toEqual([]);
    expect(ids(await listInterlocuteursByClient(h.pool, acme, [lyon]))).toEqual([jean, marie, paul, zoe]);
  });

  it('lists by installation, by the site itself, and by the site with its installations', async () => {
    expect(ids(await listInterlocuteursByInstallation(h.pool, centrale))).toEqual([marie]);
    expect(ids(await listInterlocuteursByInstallation(h.pool, sprinklers))).toEqual([zoe]);
    expect(ids(await listInterlocuteursBySiteOnly(h.pool, usine))).toEqual([paul]);
    expect(ids(await listInterlocuteursBySiteOnly(h.pool, entrepot))).toEqual([zoe]);
    expect(ids(await listInterlocuteursBySite(h.pool, usine))).toEqual([marie, paul, zoe]);
    expect(ids(await listInterlocuteursBySite(h.pool, entrepot))).toEqual([paul, zoe]);
    expect(await listInterlocuteursBySite(h.pool, usine, [paris])).toEqual([]);
  });

  it('finds a contact with its agency', async () => {
    expect(await findInterlocuteur(h.pool, marie)).toMatchObject({ id: marie, client_id: acme, agence_id: lyon, nb_installations: 1 });
    expect(await findInterlocuteur(h.pool, marie, [paris])).toBeNull();
    expect(await findInterlocuteur(h.pool, gone)).toBeNull();
  });

  it('drops affectations to deleted sites and installations, and hides the contacts of a deleted client', async () => {
    await given(`site-${entrepot}`, [{ type: 'SiteDeleted', data: { siteId: entrepot, deletedAt: at } }]);
    await given(`installation-${centrale}`, [{ type: 'InstallationDeleted', data: { installationId: centrale, deletedAt: at } }]);
    expect(await findInterlocuteur(h.pool, paul)).toMatchObject({ affectations: [{ niveau: 'site', niveau_id: usine }], nb_sites: 1, nb_installations: 0, installations_affectees: [] });
    expect(await findInterlocuteur(h.pool, zoe)).toMatchObject({ nb_sites: 0, nb_installations: 1, affectations: [{ niveau: 'installation', niveau_id: sprinklers }] });
    expect(await listInterlocuteursBySiteOnly(h.pool, entrepot)).toEqual([]);
    expect(await listInterlocuteursByInstallation(h.pool, volets)).toEqual([]);
    expect(await listInterlocuteursByInstallation(h.pool, centrale)).toEqual([]);
    expect(ids(await listInterlocuteursBySite(h.pool, usine))).toEqual([paul, zoe]);

    expect(ids(await listInterlocuteursByClient(h.pool, doomed))).toEqual([orphan]);
    await given(`client-${doomed}`, [{ type: 'ClientDeleted', data: { clientId: doomed, deletedAt: at } }]);
    expect(await listInterlocuteursByClient(h.pool, doomed)).toEqual([]);
    expect(await listInterlocuteursBySiteOnly(h.pool, doomedSite)).toEqual([]);
    expect(await findInterlocuteur(h.pool, orphan)).toBeNull();
  });

  it('changes nothing when the same event is appended again or old events are delivered late', async () => {
    const before = await listInterlocuteursByClient(h.pool, acme);
    await given(`interlocuteur-${zoe}`, [contact(zoe, acme, 'Zoé', 'Martin', [entrepot], [sprinklers], 'InterlocuteurUpdated')]);
    const after = await listInterlocuteursByClient(h.pool, acme);
    expect(withoutVersions(after)).toEqual(withoutVersions(before));
    expect(after.find((row) => row.id === zoe)?.version).toBe((before.find((row) => row.id === zoe)?.version ?? NaN) + 1);
    await expectSameRows(tables, () => redeliver(streams));
  });

  it('gives the same rows after a rebuild', () => expectSameRows(tables, rebuild));
});
