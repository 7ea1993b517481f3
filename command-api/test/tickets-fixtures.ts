import { randomBytes, randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { installationEventSchema, installationStreamId, parseRecorded, qrCodeEventSchema, qrCodeStreamId, ticketStreamId, type TicketVisitBodyInput } from '@fsm/contracts';
import { readStreamOrEmpty, type RecordedEvent } from '@fsm/eventstore';
import { commandContext } from '../src/commands/command-context.js';
import { execute } from '../src/commands/execute.js';
import { installationDecider } from '../src/domain/installation/index.js';
import { qrCodeDecider } from '../src/domain/qrcode/index.js';
import { DEMO_SIGNATURE_DATA_URL } from '../src/seed/ticket-demo-step.js';
import type { ApiHarness, TestUser } from '../src/test-support/api-harness.js';
import { appendInstallationTree } from '../src/test-support/installation-tree.js';

/**
 * Shared set-up of the ticket API tests: management data appended through the
 * management deciders (the management routes are not the subject here), a
 * multipart builder, image bytes, the captcha solver.
 */

export interface World {
  agenceId: string;
  clientId: string;
  siteId: string;
  installationId: string;
  metierId: string;
}

export interface WorldOptions {
  agenceId?: string;
  agenceNom?: string;
  astreinte?: 0 | 1;
  delai?: number;
  metierDelai?: number | null;
  clientNom?: string;
}

const at = (h: ApiHarness) => h.deps.clock().toISOString();

/** A métier, client, site and installation in an agency (created when not given). */
export async function createWorld(h: ApiHarness, options: WorldOptions = {}): Promise<World> {
  const context = commandContext(h.deps);
  const agenceId = options.agenceId ?? (await h.createAgence(options.agenceNom ?? `Lyon ${randomUUID().slice(0, 6)}`));
  const tree = await appendInstallationTree(context, h.system, at(h), {
    metier: { nom: `Désenfumage ${randomUUID().slice(0, 8)}`, ordre: null, delai_inter: options.metierDelai ?? 8, HO_stats: 0 },
    client: { nom: options.clientNom ?? 'Hôpital Nord', adresse: '1 rue du Parc', ville: 'Lyon', code_postal: '69004', agence_id: agenceId },
    site: { nom: 'Bâtiment A', adresse: '3 avenue des Frères Lumière', ville: 'Lyon', code_postal: '69008' },
    installation: { nom: 'SSI catégorie A', description: 'Centrale incendie', delai: options.delai ?? 4, astreinte: options.astreinte ?? 0 },
  });
  return { agenceId, ...tree };
}

export async function deleteInstallation(h: ApiHarness, installationId: string): Promise<void> {
  await execute(
    commandContext(h.deps),
    installationDecider,
    installationStreamId(installationId),
    { type: 'DeleteInstallation', data: { installationId, hasOpenTickets: false, deletedAt: at(h) } },
    h.system,
    (r) => parseRecorded(installationEventSchema, r),
  );
}

/** A QR code of the agency, assigned to the installation when one is given; returns its key. */
export async function createQrCode(h: ApiHarness, agenceId: string, installationId: string | null): Promise<string> {
  const context = commandContext(h.deps);
  const qrCodeId = randomUUID();
  const key = randomBytes(18).toString('base64url');
  const toEvent = (r: RecordedEvent) => parseRecorded(qrCodeEventSchema, r);
  await execute(
    context,
    qrCodeDecider,
    qrCodeStreamId(qrCodeId),
    { type: 'GenerateQrCode', data: { qrCodeId, batchId: randomUUID(), agenceId, qr_key: key, url: `http://localhost/ticket?key=${key}`, generatedAt: at(h) } },
    h.system,
    toEvent,
  );
  if (installationId !== null) {
    await execute(
      context,
      qrCodeDecider,
      qrCodeStreamId(qrCodeId),
      { type: 'AssignQrCode', data: { qrCodeId, installationId, installationAgenceId: agenceId, assignedAt: at(h) } },
      h.system,
      toEvent,
    );
  }
  return key;
}

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

export const requester = { nom: 'Martin', prenom: 'Alice', email: 'alice.martin@example.fr', telephone: '06 11 22 33 44' };

export interface UploadFile {
  bytes: Buffer;
  filename: string;
  type: string;
}

/** A multipart/form-data body as a browser sends it. */
export async function multipart(fields: Record<string, string>, file?: UploadFile): Promise<Pick<InjectOptions, 'payload' | 'headers'>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('photo', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}

export async function createTicket(h: ApiHarness, user: TestUser, fields: Record<string, string>, file?: UploadFile): Promise<LightMyRequestResponse> {
  return h.request(user, { method: 'POST', url: '/api/tickets/manual/ticket-create', ...(await multipart(fields, file)) });
}

/** Creates a ticket and answers its id (fails the test when the creation fails). */
export async function openTicketId(h: ApiHarness, user: TestUser, installationId: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await createTicket(h, user, { installation_id: installationId, ...requester, probleme: 'Alarme en dérangement', ...extra });
  if (res.statusCode !== 201) throw new Error(`ticket-create → ${res.statusCode} ${res.body}`);
  return res.json().ticket_id as string;
}

export const PNG_BYTES = Buffer.from(DEMO_SIGNATURE_DATA_URL.slice('data:image/png;base64,'.length), 'base64');
export const pngFile = (): UploadFile => ({ bytes: PNG_BYTES, filename: 'photo.png', type: 'image/png' });

export function visitBody(overrides: Partial<TicketVisitBodyInput> = {}): TicketVisitBodyInput {
  return {
    constat_tech: 'Détecteur encrassé remplacé',
    remarque_tech: 'RAS',
    devis: 0,
    etat_arrivee: 'En dérangement',
    etat_depart: 'Fonctionnel',
    temps_trajet: '00:30',
    signature_client: DEMO_SIGNATURE_DATA_URL,
    signature_technicien: DEMO_SIGNATURE_DATA_URL,
    ...overrides,
  };
}

export function ticketStream(h: ApiHarness, ticketId: string): Promise<RecordedEvent[]> {
  return readStreamOrEmpty(h.store, ticketStreamId(ticketId));
}

// ---------------------------------------------------------------------------
// Captcha
// ---------------------------------------------------------------------------

/** Fetches a challenge and solves it like the browser widget; answers the `g-recaptcha-response` value. */
export async function solvedCaptcha(h: ApiHarness, remoteAddress: string): Promise<string> {
  const res = await h.request(null, { method: 'GET', url: '/api/public/captcha', remoteAddress });
  if (res.statusCode !== 200) throw new Error(`captcha → ${res.statusCode} ${res.body}`);
  const challenge = res.json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('captcha not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
