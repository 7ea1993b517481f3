import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { refreshAfterTicketCommand } from './refresh-ticket-pages';
import { appendTicketRequest } from '../../../lib/ticket-request-fields';

/** Multipart fields of POST /api/tickets/manual/ticket-create (spec §3 "Manual ticket payload"). */
export interface ManualTicketInput {
  installation_id: string;
  nom: string;
  prenom: string;
  email: string;
  telephone: string;
  probleme: string;
  photo?: File | null;
  /** `YYYY-MM-DD` and `HH:mm`, French local time; the telesurveillance form sends neither (now). */
  date_enregistrement?: string;
  heure_enregistrement?: string;
  id_technicien?: string;
}

export interface ManualTicketCreated {
  message: string | null;
  ticketId: string | null;
}

function manualTicketFormData(input: ManualTicketInput): FormData {
  const form = new FormData();
  form.append('installation_id', input.installation_id);
  appendTicketRequest(form, input);
  if (input.date_enregistrement) form.append('date_enregistrement', input.date_enregistrement);
  if (input.heure_enregistrement) form.append('heure_enregistrement', input.heure_enregistrement);
  if (input.id_technicien) form.append('id_technicien', input.id_technicien);
  if (input.photo) form.append('photo', input.photo, input.photo.name);
  return form;
}

/**
 * Staff read `message` or `error`; telesurveillance reads `success`,
 * `ticket_id`, `error` (spec §7). A 2xx with `success: false` is a failure.
 */
export async function createManualTicket(input: ManualTicketInput): Promise<ManualTicketCreated> {
  const answer = await apiRequest<unknown>('/api/tickets/manual/ticket-create', {
    method: 'POST',
    formData: manualTicketFormData(input),
  });
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  if (body.success === false) {
    throw new ApiError(200, typeof body.error === 'string' && body.error ? body.error : undefined, answer);
  }
  return {
    message: typeof body.message === 'string' && body.message.trim() ? body.message : null,
    ticketId: typeof body.ticket_id === 'string' || typeof body.ticket_id === 'number' ? String(body.ticket_id) : null,
  };
}

export function useCreateManualTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createManualTicket,
    onSuccess: () => refreshAfterTicketCommand(queryClient, []),
  });
}
