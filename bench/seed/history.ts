import {
  chronoStreamId,
  formatNumChrono,
  isUrgentTicket,
  ticketLocalYear,
  ticketStreamId,
  TICKET_ARRIVAL_STATES,
  TICKET_DEPARTURE_STATES,
  type TicketEvent,
  type ChronoAllocated,
} from '@fsm/contracts';
import type { BenchAgency, BenchInstallation, MasterData, Person } from './master-data.js';
import { Random } from './random.js';

/*
 * The ticket history, generated in time order. Tickets open over `days` days
 * ending at `end` (weekdays busier than weekends, office hours busier than
 * nights); each ticket's whole life is planned when it opens and its events go
 * into day buckets, so the log comes out chronological and memory only holds
 * the tickets still alive (a few days' worth), whatever N is. Events after
 * `end` are never written: recent tickets stay open, in progress or in
 * re-intervention, as in a real database.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 24 * HOUR;

export interface PlannedEvent {
  at: number;
  stream: string;
  id: string;
  type: string;
  data: unknown;
  actor: Person | null;
  correlationId: string;
  /** Last event of its stream in the whole history: the stream's revision can be forgotten after it. */
  last: boolean;
}

export interface HistoryOptions {
  tickets: number;
  days: number;
  end: number;
  master: MasterData;
  /** File-store references the visits and openings point at (real PNGs in the bench's blob store). */
  signatureRefs: readonly string[];
  photoRef: string;
  seed: number;
}

export interface HistoryStats {
  tickets: number;
  events: number;
  byType: Record<string, number>;
}

const PROBLEMES = [
  'Alarme feu déclenchée sans cause apparente, centrale en défaut.',
  'Détecteur en dérangement au 2e étage, signal sonore permanent.',
  'Extincteur percuté dans le hall, à remplacer.',
  'Volet de désenfumage bloqué en position ouverte.',
  'BAES hors service dans la cage d’escalier B.',
  'RIA qui fuit au niveau du dévidoir.',
  'Défaut alimentation secourue sur la centrale SSI.',
  'Vérification demandée après travaux de peinture.',
  'Déclencheur manuel cassé près de la sortie de secours.',
  'Centrale qui affiche un défaut de boucle 3.',
];
const CONSTATS = [
  'Détecteur optique encrassé : remplacé. Boucle testée, centrale réarmée, essais concluants.',
  'Batterie de la centrale en fin de vie : remplacée, autonomie contrôlée.',
  'Extincteur remplacé par un appareil équivalent, étiquette de vérification posée.',
  'Moteur du volet grippé : graissé et réglé, trois cycles d’ouverture réussis.',
  'Bloc BAES défectueux remplacé, test de coupure secteur conforme.',
  'Joint du RIA changé, essai en pression sans fuite.',
  'Câblage de la boucle repris, défaut d’isolement supprimé.',
  'Contrôle complet effectué, aucun défaut constaté.',
];
const REMARQUES = ['', '', 'Prévoir le remplacement des détecteurs du 2e étage.', 'Client informé, à revoir lors de la visite annuelle.', 'Accès difficile : prévenir le gardien.'];
const REQUESTERS = ['Martin', 'Bernard', 'Thomas', 'Petit', 'Robert', 'Richard', 'Durand', 'Dubois', 'Moreau', 'Laurent', 'Simon', 'Michel'];
const PRENOMS = ['Claire', 'Paul', 'Marie', 'Louis', 'Nathalie', 'Pierre', 'Sophie', 'Jean', 'Isabelle', 'Philippe'];

export interface ChunkSink {
  /** A chronological slice of the log (several days), to append before the next one is planned. */
  (events: PlannedEvent[]): Promise<void>;
}

/** Ticket openings per day: the total N spread over the days with weekday and seasonal weights. */
function openingsPerDay(tickets: number, days: number, end: number): number[] {
  const weights: number[] = [];
  const first = end - days * DAY;
  for (let d = 0; d < days; d++) {
    const date = new Date(first + d * DAY);
    const weekday = date.getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const month = date.getUTCMonth();
    weights.push((weekend ? 0.35 : 1) * (month === 7 ? 0.7 : 1) * (month === 11 || month === 0 ? 1.15 : 1));
  }
  const total = weights.reduce((a, b) => a + b, 0);
  const counts: number[] = [];
  let carry = 0;
  for (const weight of weights) {
    const exact = (tickets * weight) / total + carry;
    const count = Math.floor(exact);
    carry = exact - count;
    counts.push(count);
  }
  counts[counts.length - 1]! += tickets - counts.reduce((a, b) => a + b, 0);
  return counts;
}

/** An opening time within the day: mostly office hours, some evenings and nights (remote surveillance, on-call). */
function openingOffset(random: Random): number {
  const roll = random.next();
  const hour = roll < 0.8 ? 7 + random.next() * 11 : roll < 0.92 ? 18 + random.next() * 5 : random.next() * 7;
  return Math.floor(hour * HOUR);
}

const iso = (ms: number) => new Date(ms).toISOString();
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const person = (p: Person) => ({ id: p.id, prenom: p.prenom, nom: p.nom });

export async function generateHistory(options: HistoryOptions, chunkEvents: number, sink: ChunkSink): Promise<HistoryStats> {
  const random = new Random(options.seed);
  const { master, end, days } = options;
  const agencies = new Map<string, BenchAgency>(master.agencies.map((a) => [a.id, a]));
  const perDay = openingsPerDay(options.tickets, days, end);
  const first = end - days * DAY;
  const buckets = new Map<number, PlannedEvent[]>();
  const chronoSeq = new Map<string, number>();
  const stats: HistoryStats = { tickets: 0, events: 0, byType: {} };
  let pending: PlannedEvent[] = [];

  // Some installations see far more tickets than others (a hospital's SSI vs a school's RIA).
  const weighted: BenchInstallation[] = [];
  for (const installation of master.installations) for (let i = 0, n = installation.astreinte === 1 ? 3 : 1; i < n; i++) weighted.push(installation);

  const schedule = (event: PlannedEvent) => {
    if (event.at > end) return false;
    const day = Math.floor((event.at - first) / DAY);
    let bucket = buckets.get(day);
    if (!bucket) buckets.set(day, (bucket = []));
    bucket.push(event);
    return true;
  };

  const planTicket = (openedAt: number) => {
    const installation = random.pick(weighted);
    const agency = agencies.get(installation.agenceId)!;
    const ticketId = random.uuid();
    const stream = ticketStreamId(ticketId);
    const year = ticketLocalYear(openedAt);
    const chrono = chronoStreamId(agency.code, year);
    const seq = (chronoSeq.get(chrono) ?? 0) + 1;
    chronoSeq.set(chrono, seq);
    const numChrono = formatNumChrono({ agencyCode: agency.code, year, sequence: seq });
    const sourceRoll = random.next();
    const source = sourceRoll < 0.7 ? 'manual' : sourceRoll < 0.88 ? 'telesurveillance' : 'public';
    const operateur = source === 'manual' ? agency.admin : null;
    const openedIso = iso(openedAt);
    const urgent = isUrgentTicket({ astreinte: installation.astreinte, openedAt: openedIso, horaires: null }) || random.chance(0.03);
    const requesterNom = random.pick(REQUESTERS);
    const requesterPrenom = random.pick(PRENOMS);
    const correlation = random.uuid();
    const chain: Omit<PlannedEvent, 'last'>[] = [];

    const chronoEvent: ChronoAllocated = { type: 'ChronoAllocated', data: { seq, ticketId } };
    // The counter stream lives for the whole year: never "last" here (a handful of streams).
    schedule({ at: openedAt, stream: chrono, id: random.uuid(), type: chronoEvent.type, data: chronoEvent.data, actor: operateur, correlationId: correlation, last: false });

    const opened: TicketEvent = {
      type: 'TicketOpened',
      data: {
        ticketId,
        numChrono,
        source,
        agenceId: agency.id,
        client: installation.client,
        site: installation.site,
        installation: { id: installation.id, nom: installation.nom, astreinte: installation.astreinte },
        metier: installation.metier,
        delai: installation.delai,
        echeance: iso(openedAt + installation.delai * HOUR),
        urgent,
        probleme: random.pick(PROBLEMES),
        photo: random.chance(0.2) ? options.photoRef : null,
        requester: { nom: requesterNom, prenom: requesterPrenom, email: `${requesterPrenom}.${requesterNom}@client.fr`.toLowerCase(), telephone: '06 98 76 54 32' },
        operateur: operateur ? person(operateur) : null,
        openedAt: openedIso,
      },
    };
    chain.push({ at: openedAt, stream, id: random.uuid(), type: opened.type, data: opened.data, actor: operateur, correlationId: correlation });

    const technicien = random.pick(agency.technicians);
    let t = openedAt + Math.max(2 * MINUTE, random.exp(urgent ? 0.5 * HOUR : 3 * HOUR));
    chain.push({ at: t, stream, id: random.uuid(), type: 'TicketTakenInCharge', data: { technicien: person(technicien), takenAt: iso(t) }, actor: technicien, correlationId: random.uuid() });

    let quoteAt: number | null = null;
    const visit = (at: number, devis: 0 | 1) => {
      const travel = random.int(5, 75);
      const arriveAt = at;
      const closedAt = arriveAt + random.int(20, 180) * MINUTE;
      const visitor = random.chance(0.85) ? technicien : random.pick(agency.technicians);
      const [signatureClient, signatureTechnicien] = random.sample(options.signatureRefs, 2);
      return {
        closedAt,
        data: {
          constatTech: random.pick(CONSTATS),
          remarqueTech: random.pick(REMARQUES),
          devis,
          arriveAt: iso(arriveAt),
          closedAt: iso(closedAt),
          etatArrivee: random.pick(TICKET_ARRIVAL_STATES),
          etatDepart: random.pick(TICKET_DEPARTURE_STATES),
          tempsTrajet: hhmm(travel),
          signatureClient: signatureClient!,
          signatureTechnicien: signatureTechnicien!,
          technicien: person(visitor),
        },
        visitor,
      };
    };
    // Most tickets are settled in a day or two; a tenth wait for parts or access.
    const firstDelay = () => Math.max(15 * MINUTE, random.exp(random.chance(0.1) ? 8 * DAY : (urgent ? 0.4 : 0.6) * installation.delai * HOUR + 6 * HOUR));
    const reinterventions = random.chance(0.12) ? (random.chance(0.25) ? 2 : 1) : 0;
    for (let r = 0; r < reinterventions; r++) {
      t += firstDelay();
      const devis: 0 | 1 = random.chance(0.15) ? 1 : 0;
      const v = visit(t, devis);
      if (devis === 1 && quoteAt === null) quoteAt = v.closedAt;
      const interventionId = random.uuid();
      chain.push({ at: v.closedAt, stream, id: random.uuid(), type: 'ReinterventionRecorded', data: { ...v.data, interventionId }, actor: v.visitor, correlationId: random.uuid() });
      t = v.closedAt;
    }
    t += firstDelay();
    const devis: 0 | 1 = random.chance(0.1) ? 1 : 0;
    const closing = visit(t, devis);
    if (devis === 1 && quoteAt === null) quoteAt = closing.closedAt;
    chain.push({ at: closing.closedAt, stream, id: random.uuid(), type: 'TicketClosed', data: closing.data, actor: closing.visitor, correlationId: random.uuid() });
    t = closing.closedAt;
    if (random.chance(0.85)) {
      t += random.int(1, 30) * MINUTE;
      chain.push({
        at: t,
        stream,
        id: random.uuid(),
        type: 'TicketReportAttached',
        data: { nomRapport: `rapport-${numChrono}-${ticketId.slice(0, 8)}.pdf`, interventionId: null },
        actor: closing.visitor,
        correlationId: random.uuid(),
      });
    }
    if (quoteAt !== null && random.chance(0.7)) {
      t = Math.max(t, quoteAt) + random.exp(3 * DAY) + 10 * MINUTE;
      const day = new Date(t).toISOString().slice(0, 10);
      chain.push({
        at: t,
        stream,
        id: random.uuid(),
        type: 'QuoteValidated',
        data: { numeroDevis: `D-${day.slice(0, 4)}-${String(random.int(1, 99_999)).padStart(5, '0')}`, dateEnregistrementDevis: day, validatedAt: iso(t) },
        actor: agency.admin,
        correlationId: random.uuid(),
      });
    }
    // Events past `end` have not happened yet: the chain stops at the first of them.
    let written = 0;
    for (const event of chain) if (event.at <= end) written++;
    chain.slice(0, written).forEach((event, index) => schedule({ ...event, last: index === written - 1 }));
    stats.tickets++;
  };

  for (let day = 0; day < days; day++) {
    const dayStart = first + day * DAY;
    const offsets = Array.from({ length: perDay[day]! }, () => openingOffset(random)).sort((a, b) => a - b);
    for (const offset of offsets) planTicket(Math.min(dayStart + offset, end));
    const bucket = buckets.get(day) ?? [];
    buckets.delete(day);
    // Stable: a ticket's own events keep their order when instants tie.
    bucket.sort((a, b) => a.at - b.at);
    for (const event of bucket) {
      stats.events++;
      stats.byType[event.type] = (stats.byType[event.type] ?? 0) + 1;
    }
    pending = pending.concat(bucket);
    if (pending.length >= chunkEvents || day === days - 1) {
      // Slices of at most chunkEvents: each is one transaction, and a long one would hold back
      // every subscriber on the server (their visibility bound is cluster-wide).
      for (let start = 0; start < pending.length; start += chunkEvents) await sink(pending.slice(start, start + chunkEvents));
      pending = [];
    }
  }
  // Anything left was scheduled on the last day boundary (at === end).
  const rest = [...buckets.values()].flat().sort((a, b) => a.at - b.at);
  if (rest.length > 0) {
    for (const event of rest) {
      stats.events++;
      stats.byType[event.type] = (stats.byType[event.type] ?? 0) + 1;
    }
    for (let start = 0; start < rest.length; start += chunkEvents) await sink(rest.slice(start, start + chunkEvents));
  }
  return stats;
}
