import { apiClient } from '../../../lib/api-client';

/** PATCH /api/tickets/{id} `{ nom_rapport }`: the closure's report. */
export async function saveTicketReportName(ticketId: string, nomRapport: string): Promise<void> {
  await apiClient.patch(`/api/tickets/${encodeURIComponent(ticketId)}`, { nom_rapport: nomRapport });
}

/** PATCH /api/tickets/{id}/interventions/{interventionId} `{ nom_rapport }`: a re-intervention's report. */
export async function saveInterventionReportName(ticketId: string, interventionId: string, nomRapport: string): Promise<void> {
  await apiClient.patch(
    `/api/tickets/${encodeURIComponent(ticketId)}/interventions/${encodeURIComponent(interventionId)}`,
    { nom_rapport: nomRapport },
  );
}
