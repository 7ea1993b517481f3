import { useMutation } from '@tanstack/react-query';
import { createManualTicket, type ManualTicketInput } from '../../tickets/api/create-manual-ticket';

/**
 * The telesurveillance form posts to the same route as staff (spec §7
 * "telesurveillance reads success, ticket_id, error"), without date, time or
 * technician: the ticket opens now. Nothing to refresh here: this account sees
 * no ticket list.
 */
function createTelesurvTicket(input: Omit<ManualTicketInput, 'date_enregistrement' | 'heure_enregistrement' | 'id_technicien'>) {
  return createManualTicket(input);
}

export function useCreateTelesurvTicket() {
  return useMutation({ mutationFn: createTelesurvTicket });
}
