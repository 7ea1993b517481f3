import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgenceEvent, ClientEvent, InstallationEvent, InterlocuteurEvent, MetierEvent, SiteEvent } from '@fsm/contracts';
import type { Projector } from '../../projector.js';
import { createReadModelHarness, withoutVersions, type ReadModelHarness } from '../../test-support/read-model-harness.js';
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

const projectors: Projector[] = [agencesProjector, clientsProjector, sitesProjector, metiersProjector, installationsProjector, interlocuteursProjector];
let h: ReadModelHarness;
beforeAll(async () => {
  h = await createReadModelHarness('rm_interlocuteurs', projectors);
  // close() drops the database WITH (FORCE) before the ended pool's sockets are closed: their FATAL is expected, not a failure.
  h.pool.on('error', () => undefined);
});
afterAll(async () => h?.close());

const at = '2026-11-20T08:00:00.000Z';

function client(id: string, nom: string, agenceId: string): ClientEvent {
  return { type: 'ClientCreated', data: { clientId: id, nom, adresse: '2 rue', ville: 'Lyon', code_postal: '69002', agenceId, createdAt: at } };
}
function site(id: string, clientId: string, nom: string): SiteEvent {
  return { type: 'SiteCreated', data: { siteId: id, clientId, nom, adresse: '4 quai', ville: 'Lyon', code_postal: '69002', createdAt: at } };
}
function installation(id: string, siteId: string, nom: string, metierId: string): InstallationEvent {
  return { type: 'InstallationCreated', data: { installationId: id, siteId, nom, metierId, description: nom, delai: 4, astreinte: 0, createdAt: at } };
}
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

// The harness waits for each append's own position and replays through the real projectors.
const given = async (stream: string, events: readonly { type: string; data: unknown }[]): Promise<void> => {
  await h.given(stream, events);
};
const rebuild = (): Promise<void> => h.rebuild();
const redeliver = (streams: readonly string[]): Promise<void> => h.redeliver(streams);

const tables = async () => ({
  interlocuteurs: (await h.pool.query('SELECT * FROM rm.interlocuteurs ORDER BY id')).rows,
  affectations: (await h.pool.query('SELECT * FROM rm.interlocuteur_affectations ORDER BY interlocuteur_id, niveau, niveau_id')).rows,
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
    const agence: AgenceEvent = { type: 'AgenceCreated', data: { agenceId: lyon, nom: 'Lyon', adresse: '1 rue', cp_postal: '69001', ville: 'Lyon', telephone: '04', templateId: null, createdAt: at } };
    await given(`agence-${lyon}`, [agence]);
    const metier: MetierEvent = { type: 'MetierCreated', data: { metierId: ssi, nom: 'SSI', ordre: 1, delai_inter: 4, HO_stats: 0, createdAt: at } };
    await given('metiers-catalogue', [metier]);
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
    const rows = await tables();
    await redeliver(streams);
    expect(await tables()).toEqual(rows);
  });

  it('gives the same rows after a rebuild', async () => {
    const before = await tables();
    await rebuild();
    expect(await tables()).toEqual(before);
  });
});
