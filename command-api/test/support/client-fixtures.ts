import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { ticketStreamId } from '@fsm/contracts';
import { findInstallation } from '@fsm/projections';
import { ticketPlaceOf } from '../../src/commands/tickets/open-ticket.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../../src/test-support/api-harness.js';

/*
 * Client-management data created through the API, as the screens do, for the
 * management-*.test.ts files. Each helper asserts the call succeeded.
 */

let counter = 0;
const unique = (prefix: string) => `${prefix} ${++counter}-${randomUUID().slice(0, 4)}`;

export interface ClientFixtures {
  metier(admin: TestUser, fields?: Record<string, unknown>): Promise<string>;
  client(user: TestUser, fields?: Record<string, unknown>): Promise<string>;
  site(user: TestUser, clientId: string, fields?: Record<string, unknown>): Promise<string>;
  installation(user: TestUser, siteId: string, metierId: string, fields?: Record<string, unknown>): Promise<string>;
  interlocuteur(user: TestUser, clientId: string, fields?: Record<string, unknown>): Promise<string>;
  /** A client with one site and one installation, in `user`'s agency (or `agence_id` for admin_plus). */
  tree(user: TestUser, metierId: string, agenceId?: string): Promise<{ clientId: string; siteId: string; installationId: string }>;
  /** Appends a TicketOpened on the installation straight to the store and waits for the read models. */
  openTicket(installationId: string): Promise<string>;
  /** Closes it the same way (a statut the delete checks look at). */
  closeTicket(ticketId: string): Promise<void>;
}

export function clientFixtures(h: ApiHarness): ClientFixtures {
  async function create(user: TestUser, url: string, payload: Record<string, unknown>): Promise<string> {
    const res = await h.request(user, { method: 'POST', url, payload });
    expect(res.statusCode, `${url} ${res.body}`).toBe(201);
    return res.json().id as string;
  }

  async function append(stream: string, expectedRevision: 'no_stream' | number, type: string, data: unknown): Promise<void> {
    const result = await h.store.appendToStream(stream, [{ id: randomUUID(), type, data }], { expectedRevision });
    expect(await h.deps.watcher.waitFor(result.position, 10_000)).toBe(true);
  }

  const fixtures: ClientFixtures = {
    metier: (admin, fields = {}) => create(admin, '/api/metiers', { nom: unique('Métier'), ordre: null, delai_inter: 24, HO_stats: 0, ...fields }),
    client: (user, fields = {}) =>
      create(user, '/api/clients', { nom: unique('Client'), adresse: '3 rue de la République', ville: 'Lyon', code_postal: '69002', agence_id: user.agenceId, ...fields }),
    site: (user, clientId, fields = {}) =>
      create(user, '/api/sites', { nom: unique('Site'), adresse: '10 avenue Jean Jaurès', ville: 'Villeurbanne', code_postal: '69100', client_id: clientId, ...fields }),
    installation: (user, siteId, metierId, fields = {}) =>
      create(user, '/api/installations', { nom: unique('Installation'), id_metier: metierId, description: 'Centrale SSI', delai: 4, astreinte: 0, site_id: siteId, ...fields }),
    interlocuteur: (user, clientId, fields = {}) =>
      create(user, '/api/interlocuteurs', { nom: unique('Martin'), prenom: 'Anne', fonction: null, telephone: null, email: null, client_id: clientId, ...fields }),
    async tree(user, metierId, agenceId) {
      const clientId = await fixtures.client(user, agenceId ? { agence_id: agenceId } : {});
      const siteId = await fixtures.site(user, clientId);
      const installationId = await fixtures.installation(user, siteId, metierId);
      return { clientId, siteId, installationId };
    },
    async openTicket(installationId) {
      const installation = await findInstallation(h.pool, installationId);
      if (!installation) throw new Error(`no installation ${installationId}`);
      const ticketId = randomUUID();
      const openedAt = new Date().toISOString();
      await append(ticketStreamId(ticketId), 'no_stream', 'TicketOpened', {
        ticketId,
        numChrono: `T-${ticketId.slice(0, 8)}`,
        source: 'manual',
        agenceId: installation.agence_id,
        ...ticketPlaceOf(installation),
        installation: { id: installation.id, nom: installation.nom, astreinte: installation.astreinte },
        metier: null,
        delai: installation.delai,
        echeance: new Date(Date.parse(openedAt) + installation.delai * 3_600_000).toISOString(),
        urgent: false,
        probleme: 'Alarme en dérangement',
        photo: null,
        requester: { nom: 'Durand', prenom: 'Paul', email: 'paul@client.fr', telephone: '0601020304' },
        operateur: null,
        openedAt,
      });
      return ticketId;
    },
    async closeTicket(ticketId) {
      const at = new Date().toISOString();
      const technicien = { id: randomUUID(), prenom: 'Léa', nom: 'Martin' };
      await append(ticketStreamId(ticketId), 0, 'TicketTakenInCharge', { technicien, takenAt: at });
      await append(ticketStreamId(ticketId), 1, 'TicketClosed', {
        constatTech: 'Détecteur encrassé',
        remarqueTech: 'Nettoyé',
        devis: 0,
        arriveAt: at,
        closedAt: at,
        etatArrivee: 'En dérangement',
        etatDepart: 'Fonctionnel',
        tempsTrajet: '00:45',
        signatureClient: `${'c'.repeat(64)}.png`,
        signatureTechnicien: `${'d'.repeat(64)}.png`,
        technicien,
      });
    },
  };
  return fixtures;
}

/**
 * The world of the client-management tests: two agencies (A: 'Agence Lyon
 * Centre', B: 'Agence Grenoble'), admin_plus and an admin, a technicien_plus,
 * a technicien and a télésurveillance account of A, an admin of B, and a métier.
 */
export interface ClientWorld {
  h: ApiHarness;
  f: ClientFixtures;
  agenceA: string;
  agenceB: string;
  adminPlus: TestUser;
  adminA: TestUser;
  adminB: TestUser;
  techPlusA: TestUser;
  techA: TestUser;
  telesurvA: TestUser;
  metierId: string;
}

/**
 * Registers the file's beforeAll (builds the world on database `label`) and
 * afterAll (closes it); the world returned is filled in before the first test.
 * `metier` sets fields of the world's métier.
 */
export function useClientWorld(label: string, metier: Record<string, unknown> = {}): ClientWorld {
  const world = {} as ClientWorld;
  beforeAll(async () => {
    const h = await createApiHarness(label);
    world.h = h;
    world.f = clientFixtures(h);
    world.agenceA = await h.createAgence('Agence Lyon Centre');
    world.agenceB = await h.createAgence('Agence Grenoble');
    world.adminPlus = await h.createUser({ role: 'admin_plus', agenceId: world.agenceA });
    world.adminA = await h.createUser({ role: 'admin', agenceId: world.agenceA });
    world.adminB = await h.createUser({ role: 'admin', agenceId: world.agenceB });
    world.techPlusA = await h.createUser({ role: 'technicien_plus', agenceId: world.agenceA });
    world.techA = await h.createUser({ role: 'technicien', agenceId: world.agenceA });
    world.telesurvA = await h.createUser({ role: 'telesurveillance', telesurvAgences: [world.agenceA] });
    world.metierId = await world.f.metier(world.adminPlus, metier);
  });
  afterAll(async () => world.h?.close());
  return world;
}

/** The response's `error`, for assertions. */
export function errorOf(res: { json(): unknown }): string {
  return (res.json() as { error: string }).error;
}
