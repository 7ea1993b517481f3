import { randomUUID } from 'node:crypto';
import {
  clientStreamId,
  interlocuteurStreamId,
  reportStreamId,
  siteStreamId,
  ticketStreamId,
  type AgenceEvent,
  type ClientEvent,
  type InterlocuteurEvent,
  type ReportEmailRequestedData,
  type SiteEvent,
  type TemplateEvent,
  type TicketEvent,
} from '@fsm/contracts';
import type { BlobStore, EventStore } from '@fsm/eventstore';
import { photoPng, signaturePng } from './png.js';

/*
 * Events as the command side writes them, appended straight to the store (the
 * workers package does not import the command side): an agency, optionally
 * with a template, and a ticket opened, taken in charge and closed with real
 * PNG signatures in the blob store.
 */

const meta = () => ({ userId: null, userName: 'test', correlationId: randomUUID(), causationId: null });

export async function appendAgence(store: EventStore, options: { nom?: string; templateId?: string | null } = {}): Promise<string> {
  const agenceId = randomUUID();
  const event: AgenceEvent = {
    type: 'AgenceCreated',
    data: {
      agenceId,
      nom: options.nom ?? 'Agence Lyon Sécurité Incendie',
      adresse: '12 rue des Pompiers',
      cp_postal: '69003',
      ville: 'Lyon',
      telephone: '04 78 00 00 00',
      templateId: options.templateId ?? null,
      createdAt: '2026-01-05T08:00:00.000Z',
    },
  };
  await store.appendToStream(`agence-${agenceId}`, [{ id: randomUUID(), ...event, metadata: meta() }], { expectedRevision: 'no_stream' });
  return agenceId;
}

export async function appendTemplate(store: EventStore, contentHtml: string, name = 'Rapport agence'): Promise<string> {
  const templateId = randomUUID();
  const event: TemplateEvent = { type: 'TemplateCreated', data: { templateId, name, content_html: contentHtml, css: '', createdAt: '2026-01-05T08:00:00.000Z' } };
  await store.appendToStream(`template-${templateId}`, [{ id: randomUUID(), ...event, metadata: meta() }], { expectedRevision: 'no_stream' });
  return templateId;
}

/** A client with its address, one site and the site's contact, as the ticket's `client` and `site` refer to them. */
export interface ClientRefs {
  client: { id: string; nom: string };
  site: { id: string; nom: string; adresse: string; code_postal: string; ville: string };
}

export async function appendClientWithSite(store: EventStore, agenceId: string, contact = { prenom: 'Claire', nom: 'Martin' }): Promise<ClientRefs> {
  const client = { id: randomUUID(), nom: 'Clinique du Parc' };
  const site = { id: randomUUID(), nom: 'Bâtiment A', adresse: '1 rue des Lilas', code_postal: '69003', ville: 'Lyon' };
  const interlocuteurId = randomUUID();
  const clientCreated: ClientEvent = {
    type: 'ClientCreated',
    data: { clientId: client.id, nom: client.nom, adresse: '8 avenue des Tilleuls', ville: 'Villeurbanne', code_postal: '69100', agenceId, createdAt: '2026-01-05T08:00:00.000Z' },
  };
  const siteCreated: SiteEvent = {
    type: 'SiteCreated',
    data: { siteId: site.id, clientId: client.id, nom: site.nom, adresse: site.adresse, ville: site.ville, code_postal: site.code_postal, createdAt: '2026-01-05T08:00:00.000Z' },
  };
  const contactCreated: InterlocuteurEvent = {
    type: 'InterlocuteurCreated',
    data: {
      interlocuteurId,
      clientId: client.id,
      ...contact,
      fonction: 'Responsable sécurité',
      telephone: null,
      email: null,
      siteIds: [site.id],
      installationIds: [],
      createdAt: '2026-01-05T08:00:00.000Z',
    },
  };
  await store.appendToStream(clientStreamId(client.id), [{ id: randomUUID(), ...clientCreated, metadata: meta() }], { expectedRevision: 'no_stream' });
  await store.appendToStream(siteStreamId(site.id), [{ id: randomUUID(), ...siteCreated, metadata: meta() }], { expectedRevision: 'no_stream' });
  await store.appendToStream(interlocuteurStreamId(interlocuteurId), [{ id: randomUUID(), ...contactCreated, metadata: meta() }], { expectedRevision: 'no_stream' });
  return { client, site };
}

export interface ClosedTicket {
  ticketId: string;
  numChrono: string;
  /** Id of the TicketClosed event: the report's id. */
  closedEventId: string;
}

/** The files a visit refers to (PNG or JPEG bytes); the sample signatures and photo by default. */
export interface VisitImages {
  photo?: Buffer;
  signatureClient?: Buffer;
  signatureTechnicien?: Buffer;
}

const extensionOf = (bytes: Buffer) => (bytes[0] === 0xff ? 'jpg' : 'png');

export async function appendClosedTicket(
  store: EventStore,
  blobs: BlobStore,
  agenceId: string,
  numChrono = `LYO-2026-${String(Math.floor(Math.random() * 90000) + 10000)}`,
  images: VisitImages = {},
  /** The ticket's client and site; made-up ids (absent from the read models) by default. */
  refs?: ClientRefs,
): Promise<ClosedTicket> {
  const ticketId = randomUUID();
  const paul = { id: randomUUID(), prenom: 'Paul', nom: 'Durand' };
  const put = (bytes: Buffer) => blobs.put(bytes, extensionOf(bytes));
  const [signatureClient, signatureTechnicien, photo] = await Promise.all([
    put(images.signatureClient ?? signaturePng(1)),
    put(images.signatureTechnicien ?? signaturePng(3)),
    put(images.photo ?? photoPng()),
  ]);
  const events: TicketEvent[] = [
    {
      type: 'TicketOpened',
      data: {
        ticketId,
        numChrono,
        source: 'manual',
        agenceId,
        client: refs?.client ?? { id: randomUUID(), nom: 'Clinique du Parc' },
        site: refs?.site ?? { id: randomUUID(), nom: 'Bâtiment A', adresse: '1 rue des Lilas', code_postal: '69003', ville: 'Lyon' },
        installation: { id: randomUUID(), nom: 'SSI catégorie A', astreinte: 1 },
        metier: { id: randomUUID(), nom: 'Sécurité incendie' },
        delai: 4,
        echeance: '2026-03-02T12:00:00.000Z',
        urgent: true,
        probleme: 'Alarme feu sans cause apparente',
        photo,
        requester: { nom: 'Martin', prenom: 'Claire', email: 'claire@example.fr', telephone: '0612345678' },
        operateur: null,
        openedAt: '2026-03-02T08:00:00.000Z',
      },
    },
    { type: 'TicketTakenInCharge', data: { technicien: paul, takenAt: '2026-03-02T08:10:00.000Z' } },
    {
      type: 'TicketClosed',
      data: {
        constatTech: 'Détecteur optique encrassé, remplacé',
        remarqueTech: 'Prévoir contrôle annuel',
        devis: 1,
        arriveAt: '2026-03-02T09:00:00.000Z',
        closedAt: '2026-03-02T10:05:00.000Z',
        etatArrivee: 'En alarme feu',
        etatDepart: 'Fonctionnel',
        tempsTrajet: '00:35',
        signatureClient,
        signatureTechnicien,
        technicien: paul,
      },
    },
  ];
  const ids = events.map(() => randomUUID());
  await store.appendToStream(
    ticketStreamId(ticketId),
    events.map((event, index) => ({ id: ids[index]!, ...event, metadata: meta() })),
    { expectedRevision: 'no_stream' },
  );
  return { ticketId, numChrono, closedEventId: ids[2]! };
}

/** One ReportEmailRequested per recipient on the ticket's report, as the command side writes it; answers the requests' event ids. */
export async function appendEmailRequests(store: EventStore, ticket: ClosedTicket, recipients: string[]): Promise<string[]> {
  const stream = reportStreamId(ticket.closedEventId);
  const history = await store.readStream(stream).catch(() => []);
  const events = recipients.map((email) => {
    const data: ReportEmailRequestedData = {
      reportId: ticket.closedEventId,
      ticketId: ticket.ticketId,
      recipient: { email, nom: 'Martin', prenom: 'Claire' },
      ticketNumber: ticket.numChrono,
      site: 'Bâtiment A',
      installation: 'SSI catégorie A',
      agenceNom: 'Agence Lyon Sécurité Incendie',
      requestedAt: new Date().toISOString(),
    };
    return { id: randomUUID(), type: 'ReportEmailRequested', data, metadata: { userId: null, correlationId: randomUUID(), causationId: null } };
  });
  await store.appendToStream(stream, events, { expectedRevision: history.length - 1 });
  return events.map((event) => event.id);
}
