import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { parisCalendarDay, type Role, type TicketVisitBodyInput } from '@fsm/contracts';
import type { DemoClient, DemoSeedStep } from './demo-seed.js';

/**
 * Demo tickets, created through the ticket routes as the demo users, on the
 * installations the management step created: open, in progress, re-
 * interventions, closed with and without quotes (one validated, one
 * pending), urgent ones, and a public request through the QR flow when an
 * installation has a QR code. Dates are spread over the last weeks so the
 * home summary and the 30-day closed list have something to show.
 */

/** A real 1×1 PNG: what the signature pad sends, as a data URL. */
export const DEMO_SIGNATURE_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

interface DemoInstallation {
  id: string;
  nom: string;
}

interface CreateAnswer {
  ticket_id: string;
  num_chrono: string;
}

const DAY_MS = 86_400_000;

const REQUESTERS = [
  { nom: 'Bernard', prenom: 'Hélène', email: 'helene.bernard@exemple.fr', telephone: '06 21 43 65 87' },
  { nom: 'Petit', prenom: 'Thomas', email: 'thomas.petit@exemple.fr', telephone: '07 88 12 45 90' },
  { nom: 'Roux', prenom: 'Camille', email: 'camille.roux@exemple.fr', telephone: '06 55 44 33 22' },
] as const;

const PROBLEMS = [
  'Alarme incendie déclenchée sans raison apparente au 2e étage.',
  'Centrale SSI en défaut, voyant dérangement allumé.',
  'Porte coupe-feu qui ne se referme plus.',
  'Exutoire de désenfumage bloqué en position ouverte.',
  'Extincteur percuté dans le hall, à remplacer.',
  'Détecteur de fumée qui bipe dans la salle de réunion.',
];

async function demoInstallations(client: DemoClient): Promise<DemoInstallation[]> {
  const clients = await client.call<{ id: string }[]>('admin', 'GET', '/api/clients');
  const installations: DemoInstallation[] = [];
  for (const { id } of clients) {
    const sites = await client.call<{ installations: DemoInstallation[] }[]>('admin', 'GET', `/api/clients/${id}/sites`);
    for (const site of sites) installations.push(...site.installations);
  }
  return installations;
}

export const ticketDemoStep: DemoSeedStep = {
  name: 'tickets',
  async run(client, deps, { agenceId }) {
    const installations = await demoInstallations(client);
    if (installations.length === 0) return;
    const now = deps.clock().getTime();
    let next = 0;
    const nextInstallation = () => installations[next++ % installations.length]!;
    const technicienId = client.as('technicien').userId;
    const technicienPlusId = client.as('technicien_plus').userId;

    /** `date_enregistrement` / `heure_enregistrement` of `daysAgo` days back at a Paris time. */
    const registeredAt = (daysAgo: number, time: string) => ({ date_enregistrement: parisCalendarDay(now - daysAgo * DAY_MS), heure_enregistrement: time });
    /** A local date-time (as a datetime-local field sends it) `daysAgo` days back. */
    const localTime = (daysAgo: number, time: string) => `${parisCalendarDay(now - daysAgo * DAY_MS)}T${time}`;

    async function open(role: Role, index: number, extra: Record<string, string> = {}): Promise<CreateAnswer> {
      return client.call<CreateAnswer>(role, 'POST', '/api/tickets/manual/ticket-create', {
        installation_id: nextInstallation().id,
        ...REQUESTERS[index % REQUESTERS.length]!,
        probleme: PROBLEMS[index % PROBLEMS.length]!,
        ...extra,
      });
    }
    const take = (role: Role, ticketId: string, technicien: string) =>
      client.call(role, 'PATCH', `/api/tickets/${ticketId}`, { statut: 'en_cours', technicien_id: technicien });
    const visit = (overrides: Partial<TicketVisitBodyInput>): TicketVisitBodyInput => ({
      constat_tech: 'Détecteur encrassé nettoyé, essais de la centrale concluants.',
      remarque_tech: '',
      devis: 0,
      etat_arrivee: 'En dérangement',
      etat_depart: 'Fonctionnel',
      temps_trajet: '00:25',
      signature_client: DEMO_SIGNATURE_DATA_URL,
      signature_technicien: DEMO_SIGNATURE_DATA_URL,
      ...overrides,
    });
    const close = (role: Role, ticketId: string, body: TicketVisitBodyInput) => client.call(role, 'PATCH', `/api/tickets/${ticketId}/close`, body);
    const reintervene = (role: Role, ticketId: string, body: TicketVisitBodyInput) => client.call(role, 'POST', `/api/tickets/${ticketId}/intervention`, body);
    const report = (role: Role, ticketId: string, nom: string) => client.call(role, 'PATCH', `/api/tickets/${ticketId}`, { nom_rapport: nom });

    // --- Open -------------------------------------------------------------------
    await open('admin', 0);
    await open('admin', 1, { urgent: '1', ...registeredAt(1, '21:40') });
    await openPublicOrManual(client, installations, open);

    await openForTelesurveillance(client, agenceId, installations[0]!);

    // --- In progress ------------------------------------------------------------
    await open('technicien', 3, { id_technicien: technicienId, ...registeredAt(1, '10:15') });
    const inProgress = await open('admin', 4, registeredAt(2, '14:05'));
    await take('admin', inProgress.ticket_id, technicienPlusId);

    // --- Re-interventions (status intervention) ----------------------------------
    const reintervention = await open('technicien', 5, { id_technicien: technicienId, ...registeredAt(5, '09:10') });
    await reintervene('technicien', reintervention.ticket_id, visit({
      constat_tech: 'Carte de zone défectueuse, pièce commandée.',
      etat_depart: 'Partiellement fonctionnel',
      arrive_at: localTime(4, '08:30'),
      date_cloture: localTime(4, '10:00'),
    }));
    const reinterventionQuote = await open('admin', 0, registeredAt(6, '11:20'));
    await take('admin', reinterventionQuote.ticket_id, technicienId);
    await reintervene('technicien', reinterventionQuote.ticket_id, visit({
      constat_tech: 'Trappe de désenfumage hors d’usage : remplacement à chiffrer.',
      devis: 1,
      etat_depart: 'Non fonctionnel',
      arrive_at: localTime(5, '09:00'),
      date_cloture: localTime(5, '10:30'),
    }));

    // --- Closed -----------------------------------------------------------------
    const closed = await open('technicien', 1, { id_technicien: technicienId, ...registeredAt(10, '08:45') });
    await close('technicien', closed.ticket_id, visit({ arrive_at: localTime(10, '10:00'), date_cloture: localTime(10, '11:15') }));
    await report('technicien', closed.ticket_id, `rapport_${closed.num_chrono}.pdf`);

    const quoteValidated = await open('admin', 2, registeredAt(12, '15:30'));
    await take('admin', quoteValidated.ticket_id, technicienPlusId);
    await close('technicien_plus', quoteValidated.ticket_id, visit({
      constat_tech: 'Porte coupe-feu : ferme-porte à remplacer, devis demandé.',
      devis: 1,
      etat_depart: 'Partiellement fonctionnel',
      arrive_at: localTime(11, '09:00'),
      date_cloture: localTime(11, '10:00'),
    }));
    await client.call('admin', 'PATCH', `/api/tickets/${quoteValidated.ticket_id}/update`, {
      numero_devis: 'DEV-2026-0142',
      date_enregistrement_devis: parisCalendarDay(now - 9 * DAY_MS),
    });

    const quotePending = await open('technicien', 3, { id_technicien: technicienId, ...registeredAt(3, '13:50') });
    await close('technicien', quotePending.ticket_id, visit({
      constat_tech: 'Extincteur hors service, remplacement à chiffrer.',
      devis: 1,
      arrive_at: localTime(2, '09:30'),
      date_cloture: localTime(2, '10:10'),
    }));

    const closedUrgent = await open('admin', 4, { urgent: '1', ...registeredAt(8, '22:10') });
    await take('admin', closedUrgent.ticket_id, technicienId);
    await close('technicien', closedUrgent.ticket_id, visit({
      etat_arrivee: 'En alarme feu',
      arrive_at: localTime(7, '07:45'),
      date_cloture: localTime(7, '09:00'),
      temps_trajet: '01:10',
    }));

    const closedAfterVisit = await open('technicien_plus', 5, { id_technicien: technicienPlusId, ...registeredAt(15, '10:00') });
    await reintervene('technicien_plus', closedAfterVisit.ticket_id, visit({
      constat_tech: 'Batterie de la centrale à remplacer, retour prévu.',
      etat_depart: 'Partiellement fonctionnel',
      arrive_at: localTime(14, '14:00'),
      date_cloture: localTime(14, '15:00'),
    }));
    await close('technicien_plus', closedAfterVisit.ticket_id, visit({ arrive_at: localTime(13, '09:00'), date_cloture: localTime(13, '09:45') }));
    const [firstVisit] = await client.call<{ id: string }[]>('technicien_plus', 'GET', `/api/tickets/${closedAfterVisit.ticket_id}/interventions`);
    if (firstVisit) {
      await client.call('technicien_plus', 'PATCH', `/api/tickets/${closedAfterVisit.ticket_id}/interventions/${firstVisit.id}`, {
        nom_rapport: `rapport_${closedAfterVisit.num_chrono}_intervention_1.pdf`,
      });
    }
    await report('technicien_plus', closedAfterVisit.ticket_id, `rapport_${closedAfterVisit.num_chrono}.pdf`);
  },
};

/**
 * A ticket from the remote-surveillance centre, when the management step gave
 * its account the demo agency (otherwise its scope is empty and there is
 * nothing it may open).
 */
async function openForTelesurveillance(client: DemoClient, agenceId: string, installation: DemoInstallation): Promise<void> {
  const agences = await client.call<{ id: string }[]>('telesurveillance', 'GET', '/api/telesurv/me/agences').catch(() => []);
  if (!agences.some((agence) => agence.id === agenceId)) return;
  await client.call('telesurveillance', 'POST', '/api/tickets/manual/ticket-create', {
    installation_id: installation.id,
    ...REQUESTERS[0],
    probleme: 'Transmission d’alarme feu reçue au centre de télésurveillance, levée de doute impossible.',
  });
}

/**
 * The public request, as a visitor who scanned a QR code would send it
 * (captcha solved here like the browser widget does). When no installation
 * has a QR code (or the QR routes are not there), the technician registers
 * the request by hand instead: the demo must not depend on it.
 */
async function openPublicOrManual(
  client: DemoClient,
  installations: readonly DemoInstallation[],
  open: (role: Role, index: number) => Promise<CreateAnswer>,
): Promise<void> {
  for (const installation of installations) {
    const codes = await client.call<{ items: { qr_key: string }[] }>('admin', 'GET', `/api/qrcodes/by-installation/${installation.id}`).catch(() => null);
    const key = codes?.items[0]?.qr_key;
    if (key === undefined) continue;
    const challengeAnswer = await client.app.inject({ method: 'GET', url: '/api/public/captcha' });
    const challenge = challengeAnswer.json() as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) break;
    const answer = await client.app.inject({
      method: 'POST',
      url: '/api/public/ticket-create',
      payload: {
        key,
        ...REQUESTERS[2],
        probleme: 'Sirène qui se déclenche par intermittence dans le parking.',
        'g-recaptcha-response': Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
      },
    });
    if (answer.statusCode >= 400) throw new Error(`demo seed: public ticket → ${answer.statusCode} ${answer.body}`);
    return;
  }
  await open('technicien', 2);
}
