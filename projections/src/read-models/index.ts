import type { Projector } from '../projector.js';
import { agencesProjector } from './agences/agences-projector.js';
import { usersProjector } from './users/users-projector.js';
import { ticketsProjector } from './tickets/tickets-projector.js';
import { ticketInterventionsProjector } from './tickets/ticket-interventions-projector.js';
import { clientsProjector } from './clients/clients-projector.js';
import { sitesProjector } from './sites/sites-projector.js';
import { installationsProjector } from './installations/installations-projector.js';
import { interlocuteursProjector } from './interlocuteurs/interlocuteurs-projector.js';
import { qrcodesProjector } from './qrcodes/qrcodes-projector.js';
import { metiersProjector } from './metiers/metiers-projector.js';
import { templatesProjector } from './templates/templates-projector.js';
import { reportsProjector } from './reports/reports-projector.js';
import { ticketSlaProjector } from './ticket-sla/ticket-sla-projector.js';

export * from './queryable.js';
export * from './snapshot-pages.js';
export * from './agences/agences-queries.js';
export * from './users/users-queries.js';
export * from './tickets/tickets-queries.js';
export * from './tickets/open-tickets-queries.js';
export * from './tickets/closed-tickets-queries.js';
export * from './tickets/ticket-summary-queries.js';
export { STREAMED_TICKETS_PAGE_SIZE, isoInstantSql, type AdmitRows, type TicketPage } from './tickets/ticket-answer-sql.js';
export * from './tickets/open-ticket-checks.js';
export * from './tickets/ticket-interventions-queries.js';
export * from './tickets/ticket-photo-scope.js';
export * from './clients/clients-queries.js';
export * from './sites/sites-queries.js';
export * from './installations/installations-queries.js';
export * from './interlocuteurs/interlocuteurs-queries.js';
export * from './qrcodes/qrcodes-queries.js';
export * from './metiers/metiers-queries.js';
export * from './templates/templates-queries.js';
export * from './reports/reports-queries.js';
export * from './ticket-sla/ticket-sla-queries.js';
export * from './ticket-sla/ticket-sla-export-queries.js';
export * from './ticket-sla/ticket-sla-home-summary.js';
export type { StatsTicketsFilters } from './ticket-sla/ticket-sla-selection.js';
export * from './changed-ids-scope.js';

/**
 * Every read model the product serves. The runner applies them together, in
 * one transaction per batch; changing a projector's `version` rebuilds them all
 * at the next start. A projector comes after those it reads (`readsFrom`).
 */
export const readModelProjectors: readonly Projector[] = [agencesProjector, usersProjector, ticketsProjector, ticketInterventionsProjector, clientsProjector, sitesProjector, metiersProjector, installationsProjector, interlocuteursProjector, qrcodesProjector, templatesProjector, ticketSlaProjector, reportsProjector];
