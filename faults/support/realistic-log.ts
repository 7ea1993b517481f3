import { createHash, randomUUID } from 'node:crypto';
import {
  METIERS_STREAM_ID,
  agenceStreamId,
  clientStreamId,
  installationStreamId,
  reportStreamId,
  siteStreamId,
  templateStreamId,
  ticketStreamId,
  userStreamId,
  type TicketEvent,
} from '@fsm/contracts';
import type { EventStore, NewEvent } from '@fsm/eventstore';
import {
  agenceDecider,
  clientDecider,
  installationDecider,
  metiersDecider,
  siteDecider,
  templateDecider,
  ticketDecider,
  userDecider,
  type Decider,
  type DomainEvent,
  type TicketCommand,
} from '@fsm/command-api/test-support';

/*
 * A large, realistic event log, written fast: every event comes out of the
 * product's own deciders (so it is a sequence the command side could have
 * written), and each stream is appended in ONE call through the event-store
 * API. Agencies, templates, métiers, users, clients, sites, installations,
 * then tickets through their whole lifecycle (opened, taken in charge,
 * re-interventions, closed, report name, quote validated) and the reports'
 * own streams (generated, e-mail asked, e-mailed).
 */

const DAY = 86_400_000;
const START = Date.parse('2026-01-05T07:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const pick = <T>(items: readonly T[], n: number): T => items[n % items.length]!;

interface PendingStream {
  stream: string;
  events: NewEvent[];
}

function decideAll<C, S, E extends DomainEvent>(decider: Decider<C, S, E>, commands: readonly C[], ids?: string[]): NewEvent[] {
  let state = decider.initialState;
  const out: NewEvent[] = [];
  for (const command of commands) {
    for (const event of decider.decide(command, state)) {
      state = decider.evolve(state, event);
      const id = randomUUID();
      ids?.push(id);
      out.push({ id, type: event.type, data: event.data, metadata: { userId: null, userName: 'faults', correlationId: id, causationId: null } });
    }
  }
  return out;
}

const PROBLEMS = [
  'Alarme incendie déclenchée sans raison apparente au 2e étage.',
  'Centrale SSI en défaut, voyant dérangement allumé.',
  'Porte coupe-feu qui ne se referme plus.',
  'Exutoire de désenfumage bloqué en position ouverte.',
  'Détecteur de fumée qui bipe dans la salle de réunion.',
];
const ARRIVAL = ['En alarme feu', 'En dérangement', 'Hors service'] as const;

export interface LogFigures {
  events: number;
  streams: number;
  tickets: number;
}

/** Builds the streams of a log of at least `target` events (in memory). */
export function buildRealisticLog(target: number): { streams: PendingStream[]; figures: LogFigures } {
  const streams: PendingStream[] = [];
  let events = 0;
  const add = (stream: string, list: NewEvent[]) => {
    if (list.length === 0) return;
    streams.push({ stream, events: list });
    events += list.length;
  };
  const at = iso(START);

  // --- management -------------------------------------------------------------
  const templateId = randomUUID();
  add(
    templateStreamId(templateId),
    decideAll(templateDecider, [{ type: 'CreateTemplate', data: { templateId, fields: { name: 'Rapport standard', content_html: '<h1>Rapport {{ticket.num_chrono}}</h1><p>{{client.nom}}</p>', css: '' }, createdAt: at } }]),
  );
  const agences = Array.from({ length: 4 }, (_, n) => ({ id: randomUUID(), nom: `Agence ${['Lyon', 'Grenoble', 'Annecy', 'Valence'][n]}` }));
  for (const agence of agences) {
    add(
      agenceStreamId(agence.id),
      decideAll(agenceDecider, [{ type: 'CreateAgence', data: { agenceId: agence.id, fields: { nom: agence.nom, adresse: '12 rue des Pompiers', cp_postal: '69003', ville: 'Lyon', telephone: '04 78 00 00 00' }, createdAt: at } }]),
    );
  }
  const metiers = Array.from({ length: 5 }, (_, n) => ({ id: randomUUID(), nom: ['Sécurité incendie', 'Désenfumage', 'Extincteurs', 'Portes coupe-feu', 'Éclairage de sécurité'][n]! }));
  add(
    METIERS_STREAM_ID,
    decideAll(
      metiersDecider,
      metiers.map((m, n) => ({ type: 'CreateMetier' as const, data: { metierId: m.id, fields: { nom: m.nom, ordre: n + 1, delai_inter: 4 + n, HO_stats: 0 }, createdAt: at } })),
    ),
  );
  const technicians: { id: string; prenom: string; nom: string; agenceId: string }[] = [];
  for (const [a, agence] of agences.entries()) {
    for (let n = 0; n < 6; n++) {
      const id = randomUUID();
      const prenom = pick(['Paul', 'Julie', 'Marc', 'Sophie', 'Karim', 'Léa'], n);
      const role = n === 0 ? 'admin' : 'technicien';
      technicians.push({ id, prenom, nom: `Durand${a}${n}`, agenceId: agence.id });
      add(
        userStreamId(id),
        decideAll(userDecider, [
          { type: 'CreateUser', data: { userId: id, fields: { nom: `Durand${a}${n}`, prenom, email: `tech${a}${n}.${id.slice(0, 8)}@agence.test`, telephone: '0600000000', role, agence_id: agence.id }, emailTaken: false, createdAt: at } },
        ]),
      );
    }
  }
  const installations: { id: string; nom: string; agence: (typeof agences)[number]; client: { id: string; nom: string }; site: { id: string; nom: string }; metier: (typeof metiers)[number] }[] = [];
  for (let c = 0; c < 120; c++) {
    const agence = pick(agences, c);
    const client = { id: randomUUID(), nom: `Client ${c} ${pick(['Clinique', 'Lycée', 'Hôtel', 'Entrepôt'], c)}` };
    add(
      clientStreamId(client.id),
      decideAll(clientDecider, [{ type: 'CreateClient', data: { clientId: client.id, fields: { nom: client.nom, adresse: `${c} avenue Jean Jaurès`, ville: 'Lyon', code_postal: '69007', agence_id: agence.id }, createdAt: at } }]),
    );
    for (let s = 0; s < 2; s++) {
      const site = { id: randomUUID(), nom: `Bâtiment ${'AB'[s]}` };
      add(
        siteStreamId(site.id),
        decideAll(siteDecider, [{ type: 'CreateSite', data: { siteId: site.id, fields: { nom: site.nom, adresse: `${s + 1} rue des Lilas`, ville: 'Lyon', code_postal: '69003', client_id: client.id }, createdAt: at } }]),
      );
      for (let i = 0; i < 2; i++) {
        const metier = pick(metiers, c + s + i);
        const installation = { id: randomUUID(), nom: `SSI ${c}-${s}-${i}`, agence, client, site, metier };
        installations.push(installation);
        add(
          installationStreamId(installation.id),
          decideAll(installationDecider, [
            {
              type: 'CreateInstallation',
              data: { installationId: installation.id, fields: { nom: installation.nom, id_metier: metier.id, description: 'Centrale 8 zones', delai: 4, astreinte: (c + i) % 2 === 0 ? 1 : 0, site_id: site.id }, createdAt: at },
            },
          ]),
        );
      }
    }
  }

  // --- tickets and their reports ---------------------------------------------
  let tickets = 0;
  while (events < target) {
    const n = tickets++;
    const installation = pick(installations, n * 7);
    const agenceTechs = technicians.filter((t) => t.agenceId === installation.agence.id);
    const tech = pick(agenceTechs, n);
    const ticketId = randomUUID();
    const opened = START + (n % 90) * DAY + (n % 600) * 60_000;
    const commands: TicketCommand[] = [
      {
        type: 'OpenTicket',
        data: {
          ticketId,
          numChrono: `LYO-2026-${String(n + 1).padStart(5, '0')}`,
          source: 'manual',
          agenceId: installation.agence.id,
          client: { id: installation.client.id, nom: installation.client.nom },
          site: { id: installation.site.id, nom: installation.site.nom, adresse: '1 rue des Lilas', code_postal: '69003', ville: 'Lyon' },
          installation: { id: installation.id, nom: installation.nom, astreinte: n % 2 === 0 ? 1 : 0 },
          metier: { id: installation.metier.id, nom: installation.metier.nom },
          delai: 4,
          urgent: n % 5 === 0,
          probleme: pick(PROBLEMS, n),
          photo: null,
          requester: { nom: 'Martin', prenom: 'Claire', email: 'claire.martin@example.fr', telephone: '06 12 34 56 78' },
          operateur: { id: tech.id, prenom: tech.prenom, nom: tech.nom },
          openedAt: iso(opened),
          now: iso(opened),
        },
      },
    ];
    const stage = n % 10; // 0: left open, 1: in progress, 2..9: visits and closed
    if (stage >= 1) commands.push({ type: 'TakeTicketInCharge', data: { technicien: { id: tech.id, prenom: tech.prenom, nom: tech.nom }, takenAt: iso(opened + 600_000) } });
    const visit = (k: number, devis: number) => ({
      constatTech: `Constat ${n}-${k} : détecteur remplacé`,
      remarqueTech: k % 2 === 0 ? 'RAS' : 'Prévoir contrôle annuel',
      devis,
      arriveAt: iso(opened + (k + 1) * 3_600_000),
      closedAt: iso(opened + (k + 1) * 3_600_000 + 1_800_000),
      etatArrivee: pick(ARRIVAL, n + k),
      etatDepart: 'Fonctionnel',
      tempsTrajet: '00:35',
      signatureClient: `${'a'.repeat(64)}.png`,
      signatureTechnicien: `${'b'.repeat(64)}.png`,
      now: iso(opened + 5 * DAY),
    });
    // Busy sites: one to four re-interventions, each with its report name, as the UI saves it.
    const reinterventions = stage >= 2 ? 1 + (n % 4) : 0;
    for (let k = 0; k < reinterventions; k++) {
      const interventionId = randomUUID();
      commands.push({ type: 'RecordReintervention', data: { ...visit(k, k === 0 && n % 4 === 0 ? 1 : 0), interventionId } });
      commands.push({ type: 'AttachReport', data: { nomRapport: `rapport-${n}-intervention-${k + 1}.pdf`, interventionId } });
    }
    const closes = stage >= 3;
    if (closes) commands.push({ type: 'CloseTicket', data: visit(reinterventions, n % 3 === 0 ? 1 : 0) });
    if (closes && n % 2 === 0) commands.push({ type: 'AttachReport', data: { nomRapport: `rapport-${n}.pdf`, interventionId: null } });
    const ids: string[] = [];
    const ticketEvents = decideAll(ticketDecider, commands, ids);
    // A quote asked by a visit is validated on half the tickets (decide refuses it otherwise).
    let state = ticketEvents.reduce((s, e) => ticketDecider.evolve(s, { type: e.type, data: e.data } as TicketEvent), ticketDecider.initialState);
    if (state.status !== 'nonexistent' && state.quote.status === 'pending' && n % 2 === 1) {
      for (const event of ticketDecider.decide({ type: 'ValidateQuote', data: { numeroDevis: `D-${n}`, validatedAt: iso(opened + 5 * DAY) } }, state)) {
        state = ticketDecider.evolve(state, event);
        const id = randomUUID();
        ticketEvents.push({ id, type: event.type, data: event.data, metadata: { userId: tech.id, userName: tech.prenom, correlationId: id, causationId: null } });
      }
    }
    add(ticketStreamId(ticketId), ticketEvents);

    // The closure's report, as the workers write it.
    const closedIndex = ticketEvents.findIndex((e) => e.type === 'TicketClosed');
    if (closedIndex >= 0 && n % 5 !== 4) {
      const reportId = ticketEvents[closedIndex]!.id;
      const sha256 = createHash('sha256').update(reportId).digest('hex');
      const generatedAt = iso(opened + 6 * 3_600_000);
      const requestId = randomUUID();
      const meta = (id: string) => ({ userId: null, userName: 'workers', correlationId: reportId, causationId: id });
      const reportEvents: NewEvent[] = [
        {
          id: randomUUID(),
          type: 'ReportGenerated',
          data: {
            reportId,
            ticketId,
            interventionId: null,
            filename: `rapport-LYO-2026-${String(n + 1).padStart(5, '0')}-${reportId.slice(0, 8)}.pdf`,
            blobRef: `${sha256}.pdf`,
            sha256,
            bytes: 41_000 + n,
            templateId: null,
            templateName: null,
            unknownVariables: [],
            templateFallback: null,
            generatedAt,
          },
          metadata: meta(reportId),
        },
        {
          id: requestId,
          type: 'ReportEmailRequested',
          data: { reportId, ticketId, recipient: { email: 'claire.martin@example.fr', nom: 'Martin', prenom: 'Claire' }, ticketNumber: `LYO-2026-${n + 1}`, site: installation.site.nom, installation: installation.nom, agenceNom: installation.agence.nom, requestedAt: generatedAt },
          metadata: meta(reportId),
        },
        {
          id: randomUUID(),
          type: 'ReportEmailed',
          data: { reportId, requestEventId: requestId, recipient: 'claire.martin@example.fr', messageId: `<report-${requestId}@fsm-tickets>`, transport: 'smtp', sentAt: generatedAt },
          metadata: meta(requestId),
        },
      ];
      add(reportStreamId(reportId), reportEvents);
    }
  }
  return { streams, figures: { events, streams: streams.length, tickets } };
}

/** Appends the streams, each in one call, `concurrency` at a time (management first: tickets refer to it). */
export async function appendLog(store: EventStore, streams: readonly PendingStream[], concurrency = 6): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      const item = streams[index];
      if (!item) return;
      await store.appendToStream(item.stream, item.events, { expectedRevision: 'no_stream' });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
