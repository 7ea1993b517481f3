import { formatOverrunHours, ticketCardLabel, ticketLateLabel, ticketQuoteState, ticketUrgentClosure, TICKET_LABELS, type Ticket } from '@fsm/contracts';
import { Link } from 'react-router';
import { QuotePendingIcon, WarningIcon } from '../../../components/ui/icons';
import { StatusChip } from '../../../components/ui/status-chip';
import { formatDateTime } from '../../../lib/format';

export interface TicketCardProps {
  ticket: Ticket;
  onOpenPhoto: (ticket: Ticket) => void;
  /** Present when the user may validate quotes (tickets.devis). */
  onValidateQuote?: (ticket: Ticket) => void;
  /** The instant lateness is judged at (the list's clock); now when absent. */
  now?: Date;
}

function technicianName(ticket: Ticket): string | null {
  const name = `${ticket.technicien_prenom ?? ''} ${ticket.technicien_nom ?? ''}`.trim();
  return name || null;
}

/**
 * One ticket in the list (spec §2 "Cards"): client, chrono number, label,
 * technician, site, installation, dates, thumbnail. The whole card opens the
 * detail through its title link, stretched over the card; the thumbnail and
 * the quote button sit above that link and do their own thing.
 */
export function TicketCard({ ticket, onOpenPhoto, onValidateQuote, now }: TicketCardProps) {
  const label = ticketCardLabel(ticket);
  const closure = ticketUrgentClosure(ticket);
  const quote = ticketQuoteState(ticket);
  const technician = technicianName(ticket);
  // Issue 32: a late ticket says so in words on its card, not only in its detail.
  const late = ticketLateLabel(ticket, now ?? new Date());
  const siteTown = [ticket.site_code_postal, ticket.site_ville].filter(Boolean).join(' ');
  const className = ['card', 'card--status', 'ticket-card', `status-${ticket.statut}`, ticket.urgent ? 'card--urgent' : '', late ? 'card--late' : '']
    .filter(Boolean)
    .join(' ');

  return (
    <article className={className} aria-labelledby={`ticket-${ticket.id}-title`}>
      <div className="ticket-card__main">
        <header className="ticket-card__head">
          <h2 className="ticket-card__title" id={`ticket-${ticket.id}-title`}>
            <Link to={`/tickets/${encodeURIComponent(ticket.id)}`} className="ticket-card__link">
              <span className="ticket-card__client">{ticket.client_nom}</span>{' '}
              <span className="ticket-card__chrono">{ticket.num_chrono}</span>
            </Link>
          </h2>
          <div className="ticket-card__chips">
            {label === 'Urgent' ? (
              <>
                <span className="chip chip--urgent">
                  <WarningIcon />
                  Urgent
                </span>
                <StatusChip statut={ticket.statut} />
              </>
            ) : (
              <span className={`chip status-${ticket.statut}`}>{label}</span>
            )}
            {closure.closedUrgent ? (
              <span className="ticket-card__flag ticket-card__flag--urgent">
                <WarningIcon label={TICKET_LABELS.closedUrgent} />
                <span>
                  {TICKET_LABELS.closedUrgent}
                  {closure.overrunHours !== null ? ` · dépassement ${formatOverrunHours(closure.overrunHours)}` : ''}
                </span>
              </span>
            ) : null}
            {late ? (
              <span className="ticket-card__flag ticket-card__flag--late">
                <WarningIcon />
                <span>{late}</span>
              </span>
            ) : null}
            {quote === 'pending' ? (
              <span className="ticket-card__flag ticket-card__flag--quote">
                <QuotePendingIcon label={TICKET_LABELS.quoteNotValidated} />
                <span>{TICKET_LABELS.quoteNotValidated}</span>
              </span>
            ) : null}
          </div>
        </header>

        <dl className="ticket-card__facts">
          <div>
            <dt>Site</dt>
            <dd>
              {ticket.site_nom}
              {siteTown ? <span className="muted"> · {siteTown}</span> : null}
            </dd>
          </div>
          <div>
            <dt>Installation</dt>
            <dd>
              {ticket.installation_nom}
              {ticket.metier_nom ? <span className="muted"> · {ticket.metier_nom}</span> : null}
            </dd>
          </div>
          <div>
            <dt>Technicien</dt>
            <dd>{technician ?? <span className="muted">Non pris en charge</span>}</dd>
          </div>
          <div>
            <dt>Demandé le</dt>
            <dd>{formatDateTime(ticket.created_at)}</dd>
          </div>
          {ticket.statut === 'clos' ? (
            <div>
              <dt>Clos le</dt>
              <dd>{formatDateTime(ticket.clos_at)}</dd>
            </div>
          ) : ticket.echeance ? (
            <div>
              <dt>Échéance</dt>
              <dd>{formatDateTime(ticket.echeance)}</dd>
            </div>
          ) : null}
        </dl>

        <p className="ticket-card__problem">{ticket.probleme}</p>

        {quote === 'pending' && onValidateQuote ? (
          <div className="ticket-card__actions">
            <button type="button" className="btn btn--small" onClick={() => onValidateQuote(ticket)}>
              Valider le devis
            </button>
          </div>
        ) : null}
      </div>

      {ticket.photo ? (
        <button
          type="button"
          className="ticket-card__thumb"
          onClick={() => onOpenPhoto(ticket)}
          aria-label={`Agrandir la photo du ticket ${ticket.num_chrono}`}
        >
          <img src={ticket.photo} alt="" loading="lazy" />
        </button>
      ) : null}
    </article>
  );
}
