import { TICKET_MESSAGES } from '@fsm/contracts';
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { appendTicketRequest } from '../../../lib/ticket-request-fields';

interface PublicTicketInput {
  key: string;
  nom: string;
  prenom: string;
  email: string;
  telephone: string;
  probleme: string;
  /** The captcha's proof (ALTCHA payload), under the spec's field name. */
  captcha: string;
  photo: File | null;
}

/** POST /api/public/ticket-create (multipart, no token; spec §7). */
async function createPublicTicket(input: PublicTicketInput): Promise<void> {
  const form = new FormData();
  form.append('key', input.key);
  appendTicketRequest(form, input);
  form.append('g-recaptcha-response', input.captcha);
  if (input.photo) form.append('photo', input.photo, input.photo.name);
  const answer = await apiRequest<unknown>('/api/public/ticket-create', { method: 'POST', formData: form, auth: false });
  if (typeof answer === 'object' && answer !== null && (answer as { success?: unknown }).success === false) {
    const error = (answer as { error?: unknown }).error;
    throw new ApiError(200, typeof error === 'string' && error ? error : TICKET_MESSAGES.publicSaveError, answer);
  }
}

export function useCreatePublicTicket() {
  return useMutation({ mutationFn: createPublicTicket });
}
