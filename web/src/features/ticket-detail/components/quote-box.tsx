import { quoteCountdown, ticketQuoteState, TICKET_LABELS, type Ticket } from '@fsm/contracts';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { formatDate, formatDateTime } from '../../../lib/format';

/** "reste 2 j 5 h", or the overdue wording. */
function quoteRemainingText(daysLeft: number, hoursLeft: number, overdue: boolean): string {
  if (overdue) return 'Délai de 5 jours dépassé';
  return `reste ${daysLeft} j ${hoursLeft} h`;
}

/**
 * The quote box (spec §4, §9): pending quotes show the 5-day countdown bar
 * (green above 3 days left, yellow 1 to 3, red at 1 day or less) and the
 * validate action; validated ones their number and date.
 */
export function QuoteBox({ ticket, now, onValidate }: { ticket: Ticket; now: Date; onValidate?: () => void }) {
  const state = ticketQuoteState(ticket);
  return (
    <section className="card detail-card" aria-labelledby="quote-title">
      <h2 id="quote-title" className="detail-card__title">
        Devis
      </h2>
      {state === 'none' ? <p className="muted">Aucun devis demandé.</p> : null}
      {state === 'pending' ? (
        <div className="stack">
          <p className="quote-box__state">
            <span className="chip chip--quote">{TICKET_LABELS.quoteNotValidated}</span>
            {ticket.date_devis ? <span className="muted">Demandé le {formatDateTime(ticket.date_devis)}</span> : null}
          </p>
          {ticket.date_devis ? <QuoteCountdownBar requestedAt={ticket.date_devis} now={now} /> : null}
          {onValidate ? (
            <button type="button" className="btn btn--primary" onClick={onValidate}>
              Valider le devis
            </button>
          ) : null}
        </div>
      ) : null}
      {state === 'validated' ? (
        <dl className="facts">
          <div>
            <dt>Numéro de devis</dt>
            <dd>{ticket.numero_devis}</dd>
          </div>
          <div>
            <dt>Enregistré le</dt>
            <dd>{formatDate(ticket.date_enregistrement_devis)}</dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}

function QuoteCountdownBar({ requestedAt, now }: { requestedAt: string; now: Date }) {
  const countdown = quoteCountdown(requestedAt, now);
  return (
    <ProgressBar
      label="Délai d’enregistrement du devis"
      percent={countdown.elapsedFraction * 100}
      colour={countdown.colour}
      text={`${quoteRemainingText(countdown.daysLeft, countdown.hoursLeft, countdown.overdue)} · échéance ${formatDateTime(countdown.dueAt)}`}
    />
  );
}
