import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  manualTicketCreateBodySchema,
  TELESURVEILLANCE_TICKET_FIELDS,
  TICKET_MESSAGES as M,
  ticketCreateResponseSchema,
  ValidationError,
  parseManagementBody,
  ticketRegistrationToIso,
} from '@fsm/contracts';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, scopeOf } from '../../auth/principal.js';
import { commandCaller } from '../../commands/command-context.js';
import { handleOpenTicket } from '../../commands/tickets/open-ticket.js';
import { readMultipartForm } from '../../files/uploads.js';
import { actorOf } from '../actor.js';

/**
 * POST /api/tickets/manual/ticket-create (multipart; JSON without a photo is
 * accepted too). Staff open tickets for their agency (admin_plus for any),
 * télésurveillance accounts for the agencies they are assigned to; an
 * installation outside that scope is "introuvable" (404). Staff may choose a
 * technician (the ticket is then taken in charge at once) and tick urgent;
 * télésurveillance sends only its form's fields: any other one with a value
 * (registration date, technician, urgency, remarque_tech…) is refused with a
 * 400 rather than silently trimmed (a 403 would end the operator's session).
 */
export async function ticketCreateRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/tickets/manual/ticket-create',
    { schema: { response: { 201: ticketCreateResponseSchema } } },
    async (request, reply) => {
      const principal = principalOf(request);
      const form = await readMultipartForm(request);
      const staff = principal.role !== 'telesurveillance';
      if (!staff) refuseFieldsOutsideTelesurvForm(form.fields);
      // Multipart text fields cannot go through the route schema; the same contracts schema parses them here.
      const body = parseManagementBody(manualTicketCreateBodySchema, form.fields);
      const { date_enregistrement: date, heure_enregistrement: time } = body;
      const opened = await handleOpenTicket(commandCaller(deps, actorOf(request)), {
        source: staff ? 'manual' : 'telesurveillance',
        installationId: body.installation_id,
        scope: scopeOf(principal),
        requester: { nom: body.nom, prenom: body.prenom, email: body.email, telephone: body.telephone },
        probleme: body.probleme,
        photo: form.file?.bytes ?? null,
        openedAt: date !== undefined && time !== undefined ? ticketRegistrationToIso(date, time) : null,
        operateur: { id: principal.id, prenom: principal.prenom, nom: principal.nom },
        urgentFlag: body.urgent === true,
        remarqueTech: body.remarque_tech ?? null,
        technicienId: body.id_technicien ?? null,
      });
      return reply.status(201).send({ success: true as const, message: M.manualSuccess, ticket_id: opened.ticketId, num_chrono: opened.numChrono });
    },
  );
}

const TELESURV_FIELDS = new Set(TELESURVEILLANCE_TICKET_FIELDS);

/** Blank values carry nothing (a form may send its empty inputs) and pass. */
function refuseFieldsOutsideTelesurvForm(fields: Readonly<Record<string, string>>): void {
  const extra = Object.entries(fields)
    .filter(([name, value]) => !TELESURV_FIELDS.has(name) && value.trim() !== '')
    .map(([name]) => name.slice(0, 40));
  if (extra.length > 0) throw new ValidationError(M.telesurvFieldsNotAllowed(extra.slice(0, 5)));
}
