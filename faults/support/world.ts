import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { agenceEventSchema, agenceStreamId, type Role, type StaffRole } from '@fsm/contracts';
import type { EventStore } from '@fsm/eventstore';
import { ProjectionRunner, readModelProjectors } from '@fsm/projections';
import { createTokenService } from '@fsm/command-api';
import {
  DEMO_SIGNATURE_DATA_URL,
  agenceDecider,
  appendInstallationTree,
  handleCreateStaffUser,
  execute,
  migrateAuth,
  type Actor,
  type CommandContext,
} from '@fsm/command-api/test-support';
import { until } from './wait.js';

/*
 * The set-up a fault test needs before its users start working: an agency,
 * staff users with tokens, and a client → site → installation to open tickets
 * on. Written through the real deciders straight to the log (the management
 * routes are not the subject here); a projections process must be running to
 * make them visible to the API.
 */

export const FAULTS_TOKEN_SECRET = 'faults-token-secret-that-is-long-enough-0123456789';

export interface WorldUser {
  id: string;
  token: string;
  role: Role;
  prenom: string;
  email: string;
}

export interface World {
  agenceId: string;
  installationId: string;
  admin: WorldUser;
  technicians: WorldUser[];
}

export async function createWorld(pool: pg.Pool, store: EventStore, options: { technicians?: number; agenceNom?: string } = {}): Promise<World> {
  await migrateAuth(pool);
  // The read-model tables (the user commands look up e-mails there); the projections process fills them.
  await new ProjectionRunner({ pool, store, projectors: readModelProjectors }).migrate();
  const context: CommandContext = { store, newId: randomUUID, waitForProjection: async () => true };
  const system: Actor = { userId: null, userName: 'système', correlationId: randomUUID() };
  const at = new Date().toISOString();

  const agenceId = randomUUID();
  await execute(
    context,
    agenceDecider,
    agenceStreamId(agenceId),
    { type: 'CreateAgence', data: { agenceId, fields: { nom: options.agenceNom ?? 'Agence Lyon Sécurité Incendie', adresse: '12 rue des Pompiers', cp_postal: '69003', ville: 'Lyon', telephone: '04 78 00 00 00' }, createdAt: at } },
    system,
    (r) => agenceEventSchema.parse({ type: r.type, data: r.data }),
  );
  const { installationId } = await appendInstallationTree(context, system, at, {
    metier: { nom: `Désenfumage ${randomUUID().slice(0, 6)}`, ordre: null, delai_inter: 8, HO_stats: 0 },
    client: { nom: 'Clinique du Parc', adresse: '8 avenue Jean Jaurès', ville: 'Lyon', code_postal: '69007', agence_id: agenceId },
    site: { nom: 'Bâtiment A', adresse: '1 rue des Lilas', ville: 'Lyon', code_postal: '69003' },
    installation: { nom: 'SSI catégorie A', description: 'Centrale incendie 8 zones', delai: 4, astreinte: 0 },
  });

  const admin = await addWorldUser(pool, store, agenceId, 'admin', 'Admin');
  const technicians: WorldUser[] = [];
  for (let index = 0; index < (options.technicians ?? 3); index++) technicians.push(await addWorldUser(pool, store, agenceId, 'technicien', `Tech${index + 1}`));
  return { agenceId, installationId, admin, technicians };
}

/** The password of every user a fault test creates. */
export const WORLD_PASSWORD = 'Faults-2026!';

/** A staff user of the agency, written by the product's command (e-mail `<prenom>.<id>@faults.test`), with a signed token. */
export async function addWorldUser(pool: pg.Pool, store: EventStore, agenceId: string, role: StaffRole, prenom: string): Promise<WorldUser> {
  const userId = randomUUID();
  const email = `${prenom.toLowerCase()}.${userId.slice(0, 8)}@faults.test`;
  await handleCreateStaffUser(
    { context: { store, newId: randomUUID, waitForProjection: async () => true }, db: pool, actor: { userId: null, userName: 'système', correlationId: randomUUID() }, now: new Date() },
    { userId, fields: { nom: 'Durand', prenom, email, telephone: '0600000000', role, agence_id: agenceId }, password: WORLD_PASSWORD },
  );
  return { id: userId, token: await createTokenService({ secret: FAULTS_TOKEN_SECRET, ttlHours: 2 }).sign({ sub: userId }), role, prenom, email };
}

/** Waits until the read models show the world (a projections process must run). */
export async function worldProjected(pool: pg.Pool, world: World, timeoutMs = 60_000): Promise<void> {
  const ids = [world.admin.id, ...world.technicians.map((t) => t.id)];
  await until(
    async () => {
      const users = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rm.users WHERE id = ANY($1)', [ids]).catch(() => null);
      const installation = await pool.query('SELECT 1 FROM rm.installations WHERE id = $1', [world.installationId]).catch(() => null);
      return users?.rows[0]?.n === ids.length && (installation?.rowCount ?? 0) > 0;
    },
    'the projections process to show the set-up',
    timeoutMs,
    100,
  );
}

// ---------------------------------------------------------------------------
// HTTP as the browser sends it
// ---------------------------------------------------------------------------

/** A real signature PNG as a data URL: what the signature pad sends. */
const SIGNATURE_DATA_URL = DEMO_SIGNATURE_DATA_URL;

/** An API answer; fault tests read its body field by field, as a client would. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiAnswer = { status: number; body: any };

export async function api(base: string, token: string | null, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body: parsed };
}

/** Opens a ticket through POST /api/tickets/manual/ticket-create (JSON, no photo). */
async function openTicket(base: string, user: WorldUser, installationId: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await api(base, user.token, 'POST', '/api/tickets/manual/ticket-create', {
    installation_id: installationId,
    nom: 'Martin',
    prenom: 'Claire',
    email: 'claire.martin@example.fr',
    telephone: '06 12 34 56 78',
    probleme: 'Alarme feu sans cause apparente',
    ...extra,
  });
  // 202: created, the read models not there yet (openVisibleTicket waits for them).
  if (res.status !== 201 && res.status !== 202) throw new Error(`ticket-create → ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { ticket_id: string }).ticket_id;
}

/**
 * Opens a ticket and waits until the API shows it, as a user sees it in the list
 * before acting on it. The creation's answer waits for the read models, but only
 * for READ_YOUR_WRITES_TIMEOUT_MS (30 s in these tests, then it answers 202): on a loaded shared server (the snapshot
 * horizon is cluster-wide, see docs/event-store.md) it can come first.
 * `visibleAtOnce` says whether it did not.
 */
export async function openVisibleTicket(base: string, user: WorldUser, installationId: string): Promise<{ ticketId: string; visibleAtOnce: boolean }> {
  const ticketId = await openTicket(base, user, installationId);
  let visibleAtOnce = true;
  for (;;) {
    const res = await api(base, user.token, 'GET', `/api/tickets/${ticketId}`);
    if (res.status === 200) return { ticketId, visibleAtOnce };
    if (res.status !== 404) throw new Error(`GET ticket → ${res.status} ${JSON.stringify(res.body)}`);
    visibleAtOnce = false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function visitBody(constat: string, devis: 0 | 1 = 0): Record<string, unknown> {
  return {
    constat_tech: constat,
    remarque_tech: 'RAS',
    devis,
    etat_arrivee: 'En dérangement',
    etat_depart: 'Fonctionnel',
    temps_trajet: '00:30',
    signature_client: SIGNATURE_DATA_URL,
    signature_technicien: SIGNATURE_DATA_URL,
  };
}
