import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METIER_ORDRE_LIMIT, TICKET_DATE_MIN_DAY, TICKET_DELAI_MAX_HOURS, TICKET_TEXT_MAX } from '@fsm/contracts';
import type { PostgresEventStore } from '@fsm/eventstore';
import { recordFigures } from './support/figures.js';
import { freePort } from './support/free-port.js';
import { logHead } from './support/log-head.js';
import { startLogDatabase, type LogDatabase } from './support/log-database.js';
import { killAllStarted, startApiProcess, startProcess, type RoleProcess } from './support/processes.js';
import { snapshotDifferences, snapshotReadModels } from './support/rm-snapshot.js';
import { until } from './support/wait.js';
import { startRoleEnvironment, type RoleEnvironment } from './support/role-environment.js';
import { WORLD_PASSWORD, addWorldUser, api, createWorld, visitBody, worldProjected, type ApiAnswer, type World, type WorldUser } from './support/world.js';

/*
 * Issue 17, "done when": as each role, the worst inputs the schemas allow (the
 * earliest dates, the largest delays and orders, the longest texts, emoji,
 * the boundaries themselves) and a few just outside them, through the real
 * API process, with the real projections process behind it. Then every read
 * model must have kept up (health as admin_plus: nothing stopped, lag 0, the
 * position at the head of the log), the values must read back as sent, and
 * `npm run rebuild` (its CLI, asking the running projections process) must
 * complete with exit code 0 and give the same rows.
 */

let database: LogDatabase;
let roles: RoleEnvironment;
let pool: pg.Pool;
let store: PostgresEventStore;
let base: string;
let projections: RoleProcess;
let world: World;
let adminPlus: WorldUser;
let technicien: WorldUser;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  database = await startLogDatabase({ poolSize: 4, notify: false });
  ({ pool, store } = database);
  world = await createWorld(pool, store, { technicians: 1 });
  technicien = world.technicians[0]!;
  adminPlus = await addWorldUser(pool, store, world.agenceId, 'admin_plus', 'Plateforme');
  roles = await startRoleEnvironment(database.db.url, 'worst');
  projections = startProcess('projections/src/main.ts', { ...roles.env, LOG_LEVEL: 'warn' }, 'projections');
  ({ url: base } = await startApiProcess(roles.env, await freePort()));
  await worldProjected(pool, world);
  await until(async () => (await api(base, adminPlus.token, 'GET', '/api/metiers')).status === 200, 'admin_plus to be known', 60_000, 100);
}, 180_000);

afterAll(async () => {
  await killAllStarted();
  await database?.close();
  await roles?.close();
});

/** The longest text of `length` characters a user could type: accents, apostrophes and an emoji. */
const longest = (length: number) => {
  const unit = 'Éole l’été 🚒 ';
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length - 1).concat('x');
};

const requester = (extra: Record<string, string> = {}) => ({
  nom: longest(TICKET_TEXT_MAX.shortText),
  prenom: longest(TICKET_TEXT_MAX.shortText),
  email: `${'a'.repeat(64)}@${'b'.repeat(60)}.example.fr`,
  telephone: '+33 6 12 34 56 78 90 12 34 56 78 90 12 3',
  probleme: longest(TICKET_TEXT_MAX.probleme),
  ...extra,
});

async function accepted(what: string, answer: Promise<ApiAnswer>): Promise<ApiAnswer['body']> {
  const res = await answer;
  expect(res.status, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(300);
  return res.body;
}

async function refused(what: string, answer: Promise<ApiAnswer>): Promise<void> {
  const res = await answer;
  expect(res.status, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(400);
  expect(typeof res.body.error).toBe('string');
}

interface Details {
  status: string;
  eventStore: { head: string | null };
  projections: { checkpoint: string | null; lag: number | null; stopped: unknown[] };
}

/** Every read model at the head of the log, none stopped (health as admin_plus). */
async function readModelsCaughtUp(what: string): Promise<Details> {
  const head = await logHead(pool);
  return until(
    async () => {
      const res = await api(base, adminPlus.token, 'GET', '/api/health');
      const details = res.body as Details;
      expect(details.projections.stopped, `${what}: a read model stopped`).toEqual([]);
      const { rows } = await pool.query<{ position: string | null; behind: unknown }>('SELECT position, projector_positions AS behind FROM proj.checkpoints');
      const row = rows[0];
      const atHead = row?.position !== null && row?.position !== undefined && store.comparePositions(row.position, head) >= 0;
      return atHead && details.projections.lag === 0 && details.status === 'ok' && JSON.stringify(row?.behind ?? {}) === '{}' ? details : undefined;
    },
    `${what}: every read model to reach the head of the log`,
    60_000,
    200,
  );
}

describe('the worst inputs the schemas allow, as each role', () => {
  let ticketFrom2000: string;
  let metierMax: string;
  let installationMax: string;

  it('are accepted, written and projected by every read model', { timeout: 240_000 }, async () => {
    const started = Date.now();

    // admin_plus: the métier order at both ends, the longest delay, an agency of the longest fields.
    const metierMin = (await accepted('métier ordre −max', api(base, adminPlus.token, 'POST', '/api/metiers', { nom: longest(255), ordre: -METIER_ORDRE_LIMIT, delai_inter: TICKET_DELAI_MAX_HOURS, HO_stats: 1 }))).id as string;
    metierMax = (await accepted('métier ordre +max', api(base, adminPlus.token, 'POST', '/api/metiers', { nom: `Max ${longest(200)}`, ordre: METIER_ORDRE_LIMIT, delai_inter: TICKET_DELAI_MAX_HOURS, HO_stats: 0 }))).id as string;
    const metiers = (await accepted('métiers', api(base, adminPlus.token, 'GET', '/api/metiers'))) as { id: string; version?: number }[];
    const reorder = metiers.filter((m) => m.id === metierMin || m.id === metierMax).map((m) => ({ id: m.id, ordre: m.id === metierMin ? METIER_ORDRE_LIMIT : -METIER_ORDRE_LIMIT }));
    await accepted('métiers reordered to both ends', api(base, adminPlus.token, 'PUT', '/api/metiers/reorder', reorder));
    await accepted('agency of the longest fields', api(base, adminPlus.token, 'POST', '/api/agences', { nom: longest(255), adresse: longest(255), cp_postal: '69003', ville: longest(255), telephone: '04 78 00 00 00' }));
    await refused('métier ordre just outside', api(base, adminPlus.token, 'POST', '/api/metiers', { nom: 'Trop loin', ordre: METIER_ORDRE_LIMIT + 1, delai_inter: 4, HO_stats: 0 }));

    // admin: a client, a site and an installation of the longest fields and the longest delay.
    const clientId = (await accepted('client', api(base, world.admin.token, 'POST', '/api/clients', { nom: longest(255), adresse: longest(255), ville: longest(255), code_postal: '69003', agence_id: world.agenceId }))).id as string;
    const siteId = (await accepted('site', api(base, world.admin.token, 'POST', '/api/sites', { nom: longest(255), adresse: longest(255), ville: longest(255), code_postal: '69003', client_id: clientId }))).id as string;
    installationMax = (
      await accepted(
        'installation delai max',
        api(base, world.admin.token, 'POST', '/api/installations', { nom: longest(255), id_metier: metierMax, description: longest(5000), delai: TICKET_DELAI_MAX_HOURS, astreinte: 1, site_id: siteId }),
      )
    ).id as string;
    await refused('installation delai just outside', api(base, world.admin.token, 'POST', '/api/installations', { nom: 'x', id_metier: metierMax, description: 'x', delai: TICKET_DELAI_MAX_HOURS + 1, astreinte: 0, site_id: siteId }));

    // The technician: a ticket registered at the earliest instant allowed, closed with the
    // arrival at its opening minute, the longest report and a quote; another one re-intervened.
    ticketFrom2000 = (
      await accepted(
        'ticket registered on the first allowed day',
        api(base, technicien.token, 'POST', '/api/tickets/manual/ticket-create', { installation_id: installationMax, ...requester(), date_enregistrement: TICKET_DATE_MIN_DAY, heure_enregistrement: '00:00' }),
      )
    ).ticket_id as string;
    await refused(
      'ticket registered the day before',
      api(base, technicien.token, 'POST', '/api/tickets/manual/ticket-create', { installation_id: installationMax, ...requester(), date_enregistrement: '1999-12-31', heure_enregistrement: '23:59' }),
    );
    await accepted('take in charge', api(base, technicien.token, 'PATCH', `/api/tickets/${ticketFrom2000}`, { statut: 'en_cours', technicien_id: technicien.id }));
    const closing = { ...visitBody(longest(TICKET_TEXT_MAX.constat), 1), remarque_tech: longest(TICKET_TEXT_MAX.remarque), temps_trajet: '23:59', arrive_at: `${TICKET_DATE_MIN_DAY}T00:00` };
    await accepted('close, arrival at the opening minute', api(base, technicien.token, 'PATCH', `/api/tickets/${ticketFrom2000}/close`, closing));
    await accepted(
      'quote registered on the opening day',
      api(base, world.admin.token, 'PATCH', `/api/tickets/${ticketFrom2000}/update`, { numero_devis: longest(TICKET_TEXT_MAX.numeroDevis), date_enregistrement_devis: TICKET_DATE_MIN_DAY }),
    );

    const reopened = (await accepted('ticket now', api(base, technicien.token, 'POST', '/api/tickets/manual/ticket-create', { installation_id: installationMax, ...requester() }))).ticket_id as string;
    await accepted('take in charge', api(base, technicien.token, 'PATCH', `/api/tickets/${reopened}`, { statut: 'en_cours', technicien_id: technicien.id }));
    const fourMinutesAhead = new Date(Date.now() + 4 * 60_000).toISOString();
    await accepted('re-intervention ending within the clock tolerance', api(base, technicien.token, 'POST', `/api/tickets/${reopened}/intervention`, { ...visitBody(longest(TICKET_TEXT_MAX.constat)), date_cloture: fourMinutesAhead }));
    await refused('a visit ending an hour ahead', api(base, technicien.token, 'PATCH', `/api/tickets/${reopened}/close`, { ...visitBody('x'), date_cloture: new Date(Date.now() + 3_600_000).toISOString() }));

    // Télésurveillance: an account created and assigned by admin_plus, its form with the longest fields.
    const email = `veille.${randomUUID().slice(0, 8)}@faults.test`;
    const accountId = (await accepted('télésurveillance account', api(base, adminPlus.token, 'POST', '/api/telesurv', { nom: longest(255), email, telephone: '0600000000', motdepasse: WORLD_PASSWORD }))).id as string;
    await accepted('assigned to the agency', api(base, adminPlus.token, 'PUT', `/api/telesurv/${accountId}/agences`, { agences: [world.agenceId] }));
    const login = await until(
      async () => {
        const res = await api(base, null, 'POST', '/api/login', { email, motdepasse: WORLD_PASSWORD });
        return res.status === 200 ? (res.body as { token: string }) : undefined;
      },
      'the télésurveillance account to sign in',
      30_000,
      200,
    );
    await accepted('télésurveillance ticket', api(base, login.token, 'POST', '/api/tickets/manual/ticket-create', { installation_id: installationMax, ...requester() }));

    const details = await readModelsCaughtUp('after the worst inputs');
    figures.secondsForTheInputs = Math.round((Date.now() - started) / 1000);
    figures.head = details.eventStore.head;
  });

  it('read back as they were sent', { timeout: 60_000 }, async () => {
    const ticket = await accepted('ticket of 2000', api(base, world.admin.token, 'GET', `/api/tickets/${ticketFrom2000}`));
    expect(ticket.num_chrono).toMatch(/2000/);
    const closed = ((await accepted('closed search', api(base, world.admin.token, 'GET', `/api/tickets/clos?date_debut=${TICKET_DATE_MIN_DAY}&date_fin=${TICKET_DATE_MIN_DAY}`))) as { tickets: { id: string }[] }).tickets;
    expect(closed.map((t) => t.id)).toContain(ticketFrom2000);
    const stats = await accepted('stats of January 2000', api(base, adminPlus.token, 'GET', `/api/stats/tickets?from=${TICKET_DATE_MIN_DAY}&to=2000-01-31`));
    expect(JSON.stringify(stats)).toContain(ticketFrom2000);
    const metiers = (await accepted('métiers', api(base, adminPlus.token, 'GET', '/api/metiers'))) as { id: string; ordre: number; delai_inter: number }[];
    expect(metiers.find((m) => m.id === metierMax)).toMatchObject({ ordre: -METIER_ORDRE_LIMIT, delai_inter: TICKET_DELAI_MAX_HOURS });
  });

  it('survive a rebuild: `npm run rebuild` completes and gives the same rows, sign-in works after it', { timeout: 300_000 }, async () => {
    const before = await snapshotReadModels(pool);
    const started = Date.now();
    const rebuild = startProcess('projections/src/rebuild-cli.ts', { ...roles.env, LOG_LEVEL: 'warn' }, 'rebuild');
    const { code } = await rebuild.exited;
    expect(code, rebuild.output()).toBe(0);
    figures.secondsToRebuild = Math.round((Date.now() - started) / 1000);
    await readModelsCaughtUp('after the rebuild');
    expect(snapshotDifferences(before, await snapshotReadModels(pool))).toEqual([]);
    const signIn = await api(base, null, 'POST', '/api/login', { email: (await pool.query<{ email: string }>('SELECT email FROM rm.users WHERE id = $1', [world.admin.id])).rows[0]!.email, motdepasse: 'Faults-2026!' });
    expect(signIn.status).toBe(200);
    expect(projections.alive, projections.output()).toBe(true);
    recordFigures('worst-inputs', figures);
  });
});
