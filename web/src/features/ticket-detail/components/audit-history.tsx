import { TICKET_MESSAGES } from '@fsm/contracts';
import { Banner } from '../../../components/ui/banner';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useTicketHistory, type TicketHistoryEvent } from '../api/get-ticket-history';

type Data = Record<string, unknown>;

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function person(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Data;
  const full = `${str(v.prenom) ?? ''} ${str(v.nom) ?? ''}`.trim();
  return full || null;
}

function named(value: unknown): string | null {
  return typeof value === 'object' && value !== null ? str((value as Data).nom) : null;
}

const SOURCES: Record<string, string> = {
  manual: 'saisie manuelle',
  public: 'demande par QR code',
  telesurveillance: 'télésurveillance',
};

/** What one event says, in French: a title and a few details. */
function describeEvent(event: TicketHistoryEvent): { title: string; details: string[] } {
  const d = event.data;
  switch (event.type) {
    case 'TicketOpened':
      return {
        title: 'Ticket ouvert',
        details: [
          str(d.source) ? `Origine : ${SOURCES[d.source as string] ?? String(d.source)}` : null,
          [named(d.client), named(d.site), named(d.installation)].filter(Boolean).join(' · ') || null,
          d.urgent === true ? 'Urgent' : null,
          str(d.probleme) ? `Problème : ${d.probleme as string}` : null,
        ].filter((x): x is string => x !== null),
      };
    case 'TicketTakenInCharge':
      return { title: 'Pris en charge', details: [person(d.technicien) ? `Technicien : ${person(d.technicien)}` : null].filter((x): x is string => x !== null) };
    case 'TicketClosed':
    case 'ReinterventionRecorded':
      return {
        title: event.type === 'TicketClosed' ? 'Ticket clos' : 'Ré-intervention enregistrée',
        details: [
          person(d.technicien) ? `Technicien : ${person(d.technicien)}` : null,
          str(d.arriveAt) ? `Arrivée : ${formatDateTime(d.arriveAt as string)}` : null,
          str(d.closedAt) ? `Fin : ${formatDateTime(d.closedAt as string)}` : null,
          str(d.etatArrivee) && str(d.etatDepart) ? `État : ${d.etatArrivee as string} → ${d.etatDepart as string}` : null,
          str(d.constatTech) ? `Constat : ${d.constatTech as string}` : null,
          d.devis === 1 ? 'Devis demandé' : null,
        ].filter((x): x is string => x !== null),
      };
    case 'TicketReportAttached':
      return {
        title: 'Rapport joint',
        details: [str(d.nomRapport), d.interventionId ? 'Rapport d’une ré-intervention' : null].filter((x): x is string => x !== null),
      };
    case 'QuoteValidated':
      return {
        title: 'Devis validé',
        details: [
          str(d.numeroDevis) ? `Numéro : ${d.numeroDevis as string}` : null,
          str(d.dateEnregistrementDevis) ? `Enregistré le ${formatDate(d.dateEnregistrementDevis as string)}` : null,
        ].filter((x): x is string => x !== null),
      };
    case 'TechnicianArrivedOnSite':
      return {
        title: 'Arrivée sur site',
        details: [
          person(d.technicien) ? `Technicien : ${person(d.technicien)}` : null,
          str(d.arrivedAt) ? `Arrivée : ${formatDateTime(d.arrivedAt as string)}` : null,
        ].filter((x): x is string => x !== null),
      };
    default:
      return { title: event.type, details: [] };
  }
}

/** The 'Historique' tab: every event of the ticket, who and when (GET /api/tickets/{id}/history). */
export function AuditHistory({ ticketId }: { ticketId: string }) {
  const query = useTicketHistory(ticketId, true);
  if (query.isPending) {
    return (
      <p className="muted" role="status">
        Chargement…
      </p>
    );
  }
  if (query.isError) return <Banner tone="error">{errorMessage(query.error, TICKET_MESSAGES.serverError)}</Banner>;
  if (query.data.length === 0) return <p className="muted">Aucun évènement.</p>;
  return (
    <ol className="timeline timeline--audit" aria-label="Historique du ticket">
      {query.data.map((event) => {
        const { title, details } = describeEvent(event);
        return (
          <li key={event.revision} className="timeline__item">
            <div className="timeline__head">
              <span className="timeline__title">{title}</span>
              <span className="timeline__meta">
                {event.recordedAt ? formatDateTime(event.recordedAt) : ''}
                {event.userName ? ` · ${event.userName}` : ''}
                <span className="timeline__revision"> · révision {event.revision}</span>
              </span>
            </div>
            {details.length > 0 ? (
              <ul className="timeline__details">
                {details.map((detail, index) => (
                  <li key={index}>{detail}</li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
