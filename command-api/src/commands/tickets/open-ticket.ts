import {
  MANAGEMENT_MESSAGES,
  NotFoundError,
  TICKET_DELAI_MAX_HOURS,
  TICKET_MESSAGES,
  isUrgentTicket,
  ticketAgencyCode,
  ticketLocalYear,
  type TicketPerson,
  type TicketRequester,
  type TicketSource,
} from '@fsm/contracts';
import { findAgenceHoraires, findInstallation, type AgenceScope } from '@fsm/projections';
import { requireRegistrationTime, type OpenTicket } from '../../domain/ticket/index.js';
import { storePhoto } from '../../files/uploads.js';
import type { FileCaller } from '../command-context.js';
import { allocateNumChrono } from './num-chrono-allocation.js';
import { resolveTechnicien, runTicketCommand } from './ticket-command-support.js';

export interface OpenTicketInput {
  source: TicketSource;
  installationId: string;
  /**
   * Agencies the caller may open tickets for: staff their own (admin_plus
   * every one), télésurveillance its assigned agencies, the public form 'all'
   * (its QR key already chose the installation).
   */
  scope: AgenceScope;
  requester: TicketRequester;
  probleme: string;
  /** The photo's bytes, checked by content before anything is written. */
  photo: Buffer | null;
  /** Registration instant (the manual form's date and time); null = now. */
  openedAt: string | null;
  /** Who registered it; null for the public form. */
  operateur: TicketPerson | null;
  /** Staff ticked "urgent" at creation; the on-call rule can only add urgency. */
  urgentFlag: boolean;
  remarqueTech: string | null;
  /** Staff chose a technician at creation: the ticket is opened and taken in charge at once. */
  technicienId: string | null;
}

/** Not in the spec: a registration date-time ahead of the server's clock (a little slack for clock drift). */
export const REGISTRATION_IN_FUTURE = TICKET_MESSAGES.registrationInFuture;

export interface OpenedTicket {
  ticketId: string;
  numChrono: string;
}

/**
 * Opens a ticket with the facts of its installation as they are now (names,
 * address, on-call flag, métier, delay), so later renames never rewrite it.
 * Everything that can refuse the request (scope, technician, photo) is checked
 * before a number is drawn, so a refused request costs no `num_chrono`.
 */
/** The client and site a ticket opened on `installation` names, copied as they are now. */
export function ticketPlaceOf(installation: NonNullable<Awaited<ReturnType<typeof findInstallation>>>): Pick<OpenTicket['data'], 'client' | 'site'> {
  return {
    client: { id: installation.client_id, nom: installation.client_nom },
    site: {
      id: installation.site_id,
      nom: installation.site_nom,
      adresse: installation.site_adresse,
      code_postal: installation.site_code_postal,
      ville: installation.site_ville,
    },
  };
}

export async function handleOpenTicket(caller: FileCaller, input: OpenTicketInput): Promise<OpenedTicket> {
  const now = caller.now.toISOString();
  // The decider's rule, applied before anything is looked up, drawn or stored.
  if (input.openedAt !== null) requireRegistrationTime(input.openedAt, now);
  const installation = await findInstallation(caller.db, input.installationId, input.scope);
  if (!installation) throw new NotFoundError(MANAGEMENT_MESSAGES.installationNotFound);
  const technicien = input.technicienId === null ? null : await resolveTechnicien(caller.db, input.technicienId, installation.agence_id);
  const photo = input.photo === null ? null : await storePhoto(caller.blobs, input.photo);

  const openedAt = input.openedAt ?? now;
  const horaires = await findAgenceHoraires(caller.db, installation.agence_id);
  const urgent = input.urgentFlag || isUrgentTicket({ astreinte: installation.astreinte, openedAt, horaires });
  // The installation's delay, else its métier's; the contracts require one on
  // every installation, the fallback keeps older data readable. One saved
  // before delays were bounded may exceed a year: the ticket gets the longest
  // delay allowed rather than being refused, since a breakdown request must
  // go through whatever an administrator once typed.
  const configured = installation.delai ?? installation.metier_delai_inter ?? null;
  const delai = configured === null ? null : Math.min(configured, TICKET_DELAI_MAX_HOURS);

  const ticketId = caller.context.newId();
  const numChrono = await allocateNumChrono(caller, {
    agencyCode: ticketAgencyCode(installation.agence_nom ?? ''),
    year: ticketLocalYear(openedAt),
    ticketId,
  });
  const command: OpenTicket = {
    type: 'OpenTicket',
    data: {
      ticketId,
      numChrono,
      source: input.source,
      agenceId: installation.agence_id,
      ...ticketPlaceOf(installation),
      installation: { id: installation.id, nom: installation.nom, astreinte: installation.astreinte === 1 ? 1 : 0 },
      metier: installation.metier_nom === null ? null : { id: installation.id_metier, nom: installation.metier_nom },
      delai,
      urgent,
      probleme: input.probleme,
      photo,
      requester: input.requester,
      operateur: input.operateur,
      openedAt,
      ...(input.remarqueTech === null ? {} : { remarqueTech: input.remarqueTech }),
      inCharge: technicien === null ? null : { technicien, takenAt: now },
      now,
    },
  };
  await runTicketCommand(caller, ticketId, command);
  return { ticketId, numChrono };
}
