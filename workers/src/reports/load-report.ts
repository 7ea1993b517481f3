import { UnrecoverableError } from 'bullmq';
import type pg from 'pg';
import {
  ticketEventSchema,
  TEMPLATE_VARIABLES,
  fillTemplateVariables,
  formatParisDate,
  formatParisDateTime,
  parseRecorded,
  reportFilename,
  ticketStreamId,
  unknownTemplateVariables,
  type TicketEvent,
  type TicketOpenedData,
  type TicketVisitReport,
} from '@fsm/contracts';
import { readStreamOrEmpty, type BlobStore, type EventStore, type RecordedEvent } from '@fsm/eventstore';
import {
  findAgence,
  findClient,
  findInstallation,
  findTemplate,
  listInterlocuteursByInstallation,
  listInterlocuteursBySite,
  readModelsReached,
  waitForReadModels,
} from '@fsm/projections';
import { READ_MODELS_WAIT_MS, ReadModelsNotReadyError } from '../read-models-delay.js';
import { REPORT_IMAGE_KEYS, TEMPLATE_VALUE_CLOSE, TEMPLATE_VALUE_OPEN, isPngOrJpeg, type ReportFacts, type RenderInput } from './report-facts.js';

/*
 * Gathers what a report shows. Ticket facts come from the ticket's own stream
 * (the visit event is the report's identity, and the read models may not have
 * reached it yet when the reactor reacts to the close); reference data that
 * the log does not repeat (agency, its template, client address, contacts,
 * métier) comes from the read models, once they have reached the visit.
 */

export interface ReportJobTarget {
  reportId: string;
  ticketId: string;
  interventionId: string | null;
}

export interface LoadedReport {
  input: RenderInput;
  filename: string;
  templateId: string | null;
  templateName: string | null;
  unknownVariables: string[];
}

export interface LoadReportDeps {
  pool: pg.Pool;
  store: EventStore;
  blobs: BlobStore;
  /** READ_MODELS_WAIT_MS unless set (tests shorten it). */
  readModelsWaitMs?: number;
}

/** '02/03/2026 à 10:05' in Paris time. */
export function frenchDateTime(iso: string): string {
  return formatParisDateTime(iso, ' à ');
}

/** '1 h 05', '45 min'. */
export function frenchDuration(fromIso: string, toIso: string): string {
  const minutes = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;
}

const fullName = (person: { prenom: string; nom: string } | null | undefined): string =>
  person ? [person.prenom, person.nom].filter((part) => part.trim() !== '').join(' ') : '';

async function readImage(blobs: BlobStore, ref: string | null): Promise<Uint8Array | null> {
  if (!ref) return null;
  try {
    const bytes = await blobs.read(ref);
    return isPngOrJpeg(bytes) ? new Uint8Array(bytes) : null;
  } catch {
    // A missing or malformed file leaves a gap in the report rather than no report.
    return null;
  }
}

interface Visit {
  event: RecordedEvent;
  report: TicketVisitReport;
  /** null for the closure. */
  ordinal: number | null;
}

function findVisit(history: readonly RecordedEvent[], parsed: readonly TicketEvent[], target: ReportJobTarget): Visit {
  let ordinal = 0;
  for (let index = 0; index < history.length; index++) {
    const event = parsed[index]!;
    if (event.type === 'ReinterventionRecorded') ordinal++;
    if (history[index]!.id !== target.reportId) continue;
    if (event.type === 'TicketClosed' && target.interventionId === null) return { event: history[index]!, report: event.data, ordinal: null };
    if (event.type === 'ReinterventionRecorded' && event.data.interventionId === target.interventionId) {
      return { event: history[index]!, report: event.data, ordinal };
    }
  }
  throw new UnrecoverableError(`report ${target.reportId}: no matching visit in ticket ${target.ticketId}`);
}


/**
 * Every read model `loadReport` reads, and those they are built from
 * (installations reads clients, sites and métiers). A query added below on
 * another read model adds its name here, or the report may print a gap.
 */
export const REPORT_READ_MODELS = ['agences', 'templates', 'clients', 'sites', 'metiers', 'installations', 'interlocuteurs'] as const;


interface ReferenceData {
  agence: Awaited<ReturnType<typeof findAgence>>;
  client: Awaited<ReturnType<typeof findClient>>;
  installation: Awaited<ReturnType<typeof findInstallation>>;
  siteContacts: Awaited<ReturnType<typeof listInterlocuteursBySite>>;
  installationContacts: Awaited<ReturnType<typeof listInterlocuteursByInstallation>>;
  template: Awaited<ReturnType<typeof findTemplate>>;
}

/**
 * What the log does not repeat (agency, its template, client address,
 * contacts, métier), read once the read models hold the visit: what was
 * written before the close is what the report shows. The check and the reads
 * share one snapshot, so a rebuild that empties the read models between them
 * cannot slip in; such a rebuild sends the loader back to waiting.
 */
async function readReferenceData(deps: LoadReportDeps, reportId: string, opened: TicketOpenedData, position: string): Promise<ReferenceData> {
  const compare = (a: string, b: string) => deps.store.comparePositions(a, b);
  const options = { readModels: REPORT_READ_MODELS };
  const deadline = Date.now() + (deps.readModelsWaitMs ?? READ_MODELS_WAIT_MS);
  for (;;) {
    const reached = await waitForReadModels({ db: deps.pool, compare }, position, { ...options, timeoutMs: Math.max(0, deadline - Date.now()) });
    if (!reached) throw new ReadModelsNotReadyError(`report ${reportId}`, position);
    const client = await deps.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      if (await readModelsReached({ db: client, compare }, position, options)) {
        const agence = await findAgence(client, opened.agenceId);
        const data: ReferenceData = {
          agence,
          client: await findClient(client, opened.client.id),
          installation: await findInstallation(client, opened.installation.id),
          siteContacts: await listInterlocuteursBySite(client, opened.site.id),
          installationContacts: await listInterlocuteursByInstallation(client, opened.installation.id),
          template: agence?.id_template ? await findTemplate(client, agence.id_template) : null,
        };
        await client.query('COMMIT');
        return data;
      }
      await client.query('ROLLBACK');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    if (Date.now() >= deadline) throw new ReadModelsNotReadyError(`report ${reportId}`, position);
  }
}

export async function loadReport(deps: LoadReportDeps, target: ReportJobTarget): Promise<LoadedReport> {
  const history = await readStreamOrEmpty(deps.store, ticketStreamId(target.ticketId));
  if (history.length === 0) throw new UnrecoverableError(`report ${target.reportId}: ticket ${target.ticketId} not found`);
  const parsed = history.map((recorded) => parseRecorded(ticketEventSchema, recorded));
  const opened = parsed.find((event): event is Extract<TicketEvent, { type: 'TicketOpened' }> => event.type === 'TicketOpened')?.data;
  if (!opened) throw new UnrecoverableError(`report ${target.reportId}: ticket ${target.ticketId} has no TicketOpened`);
  const visit = findVisit(history, parsed, target);
  const { agence, client, installation, siteContacts, installationContacts, template } = await readReferenceData(deps, target.reportId, opened, visit.event.position);
  const [photo, signatureClient, signatureTechnicien] = await Promise.all([
    readImage(deps.blobs, opened.photo),
    readImage(deps.blobs, visit.report.signatureClient),
    readImage(deps.blobs, visit.report.signatureTechnicien),
  ]);

  const filename = reportFilename(opened.numChrono, visit.ordinal, target.reportId);
  const signedAtLabel = frenchDateTime(visit.report.closedAt);
  const saisiPar = visitRecordedBy(visit.report);
  const principal = (contacts: readonly { prenom: string; nom: string }[]) => fullName(contacts[0]);
  const facts: ReportFacts = {
    reportId: target.reportId,
    filename,
    interventionOrdinal: visit.ordinal,
    agence: agence
      ? { nom: agence.nom, adresse: agence.adresse, codePostal: agence.cp_postal, ville: agence.ville, telephone: agence.telephone }
      : null,
    ticket: {
      numChrono: opened.numChrono,
      createdAtLabel: frenchDateTime(opened.openedAt),
      probleme: opened.probleme,
      urgent: opened.urgent,
      requester: opened.requester,
    },
    client: {
      nom: opened.client.nom,
      adresse: client?.adresse ?? '',
      codePostal: client?.code_postal ?? '',
      ville: client?.ville ?? '',
    },
    site: {
      nom: opened.site.nom,
      adresse: opened.site.adresse,
      codePostal: opened.site.code_postal,
      ville: opened.site.ville,
      interlocuteur: principal(siteContacts),
    },
    installation: {
      nom: opened.installation.nom,
      type: opened.metier?.nom ?? installation?.metier_nom ?? '',
      description: installation?.description ?? '',
      interlocuteur: principal(installationContacts),
    },
    visit: {
      technicien: visit.report.technicien,
      saisiPar,
      arriveAtLabel: frenchDateTime(visit.report.arriveAt),
      closedAtLabel: frenchDateTime(visit.report.closedAt),
      tempsTrajet: visit.report.tempsTrajet,
      dureeSurSite: frenchDuration(visit.report.arriveAt, visit.report.closedAt),
      etatArrivee: visit.report.etatArrivee,
      etatDepart: visit.report.etatDepart,
      constat: visit.report.constatTech,
      remarque: visit.report.remarqueTech,
      devis: visit.report.devis === 1,
    },
    photo,
    signatures: {
      client: { image: signatureClient, ...clientSigner(opened.requester, visit.report), signedAtLabel },
      technicien: { image: signatureTechnicien, ...technicienSigner(visit.report.technicien, saisiPar), signedAtLabel },
    },
    creationDate: visit.event.metadata.recordedAt ?? visit.report.closedAt,
    issuedOnLabel: formatParisDate(visit.report.closedAt),
  };

  let templateHtml: string | null = null;
  let unknownVariables: string[] = [];
  if (template) {
    unknownVariables = unknownTemplateVariables(template.content_html);
    templateHtml = fillReportTemplate(template.content_html, templateValues(facts, visit.report.technicien.id));
  }
  return {
    input: { facts, templateHtml },
    filename,
    templateId: template?.id ?? null,
    templateName: template?.name ?? null,
    unknownVariables,
  };
}

/**
 * The catalogue's variables (management §3) for one visit, all taken from the
 * report's facts, so a real report and the builder's preview (sample facts)
 * fill a template the same way.
 */
export function templateValues(facts: ReportFacts, technicienId: string): Record<string, string | null> {
  const { ticket, visit } = facts;
  return {
    'ticket.num_chrono': ticket.numChrono,
    'ticket.id_technicien': technicienId,
    'ticket.nom': ticket.requester.nom,
    'ticket.prenom': ticket.requester.prenom,
    'ticket.probleme': ticket.probleme,
    'ticket.photo': facts.photo ? REPORT_IMAGE_KEYS.photo : null,
    'ticket.created_at': ticket.createdAtLabel,
    'ticket.arrive_at': visit.arriveAtLabel,
    'ticket.temps_trajet': visit.tempsTrajet,
    'ticket.etat_arrivee': visit.etatArrivee,
    'ticket.etat_depart': visit.etatDepart,
    'ticket.clos_at': visit.closedAtLabel,
    'ticket.email': ticket.requester.email,
    'ticket.telephone': ticket.requester.telephone,
    'ticket.constat_tech': visit.constat,
    'ticket.remarque_tech': visit.remarque,
    'ticket.devis': visit.devis ? 'Oui' : 'Non',
    'ticket.urgent': ticket.urgent ? 'Urgent' : null,
    'technicien.nom': visit.technicien.nom,
    'technicien.prenom': visit.technicien.prenom,
    'demandeur.nom': ticket.requester.nom,
    'demandeur.prenom': ticket.requester.prenom,
    'demandeur.email': ticket.requester.email,
    'client.nom': facts.client.nom,
    'client.adresse': facts.client.adresse,
    'client.ville': facts.client.ville,
    'client.code_postale': facts.client.codePostal,
    // The client entity has no phone number (management §3): printed empty.
    'client.telephone': null,
    'site.nom': facts.site.nom,
    'site.adresse': facts.site.adresse,
    'site.ville': facts.site.ville,
    'site.code_postal': facts.site.codePostal,
    'site.interlocuteur_princ': facts.site.interlocuteur,
    'installation.nom': facts.installation.nom,
    'installation.interlocuteur_princ': facts.installation.interlocuteur,
    'installation.type': facts.installation.type,
    'installation.description': facts.installation.description,
    // Always present, so the evidence block prints even when the image file is missing.
    'signature.client': REPORT_IMAGE_KEYS.signatureClient,
    'signature.technicien': REPORT_IMAGE_KEYS.signatureTechnicien,
  };
}

/**
 * Who signed for the client: the name and role typed in the wizard; before
 * the wizard asked (older visits), or when left blank, the requester.
 */
export function clientSigner(
  requester: { prenom: string; nom: string },
  report: Pick<TicketVisitReport, 'signataireNom' | 'signataireQualite'>,
): { signerName: string; role: string } {
  const requesterName = fullName(requester);
  const signerName = report.signataireNom ?? requesterName;
  const role = report.signataireQualite ?? (signerName === requesterName ? 'Client (demandeur)' : 'Client');
  return { signerName, role };
}

/** Who recorded the visit when not its technician (issue 32); null when the technician did, or for a visit recorded before `auteur` existed. */
export function visitRecordedBy(report: Pick<TicketVisitReport, 'technicien' | 'auteur'>): { prenom: string; nom: string } | null {
  const { auteur } = report;
  return auteur && auteur.id !== report.technicien.id ? { prenom: auteur.prenom, nom: auteur.nom } : null;
}

/**
 * Who drew the technician's signature: the technician, unless someone else
 * recorded the visit on their own session (issue 32: the report named the
 * technician as signer when a colleague signed); then that person, for the
 * technician named.
 */
export function technicienSigner(
  technicien: { prenom: string; nom: string },
  saisiPar: { prenom: string; nom: string } | null,
): { signerName: string; role: string } {
  if (saisiPar === null) return { signerName: fullName(technicien), role: 'Technicien intervenant' };
  return { signerName: fullName(saisiPar), role: `Pour le compte de ${fullName(technicien)}` };
}

/** Stands for a typed line break through HTML escaping; U+2028 is itself a line separator, so one typed by a user means the same. */
const LINE_BREAK = '\u2028';

/** Stands for a missing image through the catalogue's filling, which would print nothing for it. */
const NO_IMAGE = 'report-no-image';
const MARKERS = new RegExp(`[${TEMPLATE_VALUE_OPEN}${TEMPLATE_VALUE_CLOSE}]`, 'g');
const IMAGE_KEYS = new Set(TEMPLATE_VARIABLES.filter((variable) => variable.kind === 'image').map((variable) => variable.key));

/**
 * Known variables filled (text escaped, typed line breaks kept: HTML would
 * fold a multi-line constat into one paragraph); unknown ones and any other
 * `{{...}}` left by an editor removed: never raw braces. Each text value, and
 * each missing image, is put between TEMPLATE_VALUE_OPEN and _CLOSE for the
 * renderer (html-report.ts), which removes them.
 */
export function fillReportTemplate(html: string, values: Readonly<Record<string, string | null>>): string {
  const marked = Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      if (IMAGE_KEYS.has(key)) return [key, value ? value : NO_IMAGE];
      const text = (value ?? '').replace(MARKERS, '').replace(/\r\n?|\n/g, LINE_BREAK);
      return [key, `${TEMPLATE_VALUE_OPEN}${text}${TEMPLATE_VALUE_CLOSE}`];
    }),
  );
  return fillTemplateVariables(html, marked)
    .replace(new RegExp(`<img src="${NO_IMAGE}"[^>]*>`, 'g'), `${TEMPLATE_VALUE_OPEN}${TEMPLATE_VALUE_CLOSE}`)
    .replaceAll(LINE_BREAK, '<br />')
    .replace(/\{\{[^{}]*\}\}/g, '')
    .replace(/\{\{|\}\}/g, '');
}
