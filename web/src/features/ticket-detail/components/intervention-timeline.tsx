import { deadlineBar, formatOverrunHours, ticketQuoteState, type TicketReport, type Ticket } from '@fsm/contracts';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format';
import type { InterlocuteurOption } from '../../../lib/lookups/lookup-types';
import type { InterventionView } from '../../tickets/api/ticket-view';
import { Fact } from './fact';
import { ReportDelivery } from './report-delivery';
import { ReportLink } from './report-link';

/** One visit on site: the ticket's own (main) intervention or a re-intervention. */
export interface Visit {
  key: string;
  title: string;
  technician: string | null;
  arriveAt: string | null;
  closAt: string | null;
  constat: string | null;
  remarque: string | null;
  etatArrivee: string | null;
  etatDepart: string | null;
  tempsTrajet: string | null;
  devis: boolean;
  nomRapport: string | null;
  /** The re-intervention's id; null for the ticket's own visit (its report is the closure's). */
  interventionId: string | null;
  /** When the visit sorts in time. */
  at: string;
}

function name(prenom: string | null | undefined, nom: string | null | undefined): string | null {
  const full = `${prenom ?? ''} ${nom ?? ''}`.trim();
  return full || null;
}

/**
 * Spec §4: the main intervention is shown only once the technician arrived or
 * the ticket is `clos` or `intervention`; re-interventions always. Oldest
 * first; the last one is the finished one when the ticket is clos.
 */
function ticketVisits(ticket: Ticket, interventions: readonly InterventionView[]): Visit[] {
  const visits: Visit[] = interventions.map((iv, index) => ({
    key: `iv-${iv.id}`,
    title: `Ré-intervention ${iv.ordinal ?? index + 1}`,
    technician: name(iv.technicien_prenom, iv.technicien_nom),
    arriveAt: iv.arrive_at,
    closAt: iv.clos_at,
    constat: iv.constat_tech,
    remarque: iv.remarque_tech,
    etatArrivee: iv.etat_arrivee,
    etatDepart: iv.etat_depart,
    tempsTrajet: iv.temps_trajet,
    devis: iv.devis === 1,
    nomRapport: iv.nom_rapport,
    interventionId: iv.id,
    at: iv.arrive_at ?? iv.created_at,
  }));
  if (ticket.arrive_at !== null || ticket.statut === 'clos' || ticket.statut === 'intervention') {
    visits.push({
      key: 'main',
      title: ticket.statut === 'clos' ? 'Intervention de clôture' : 'Intervention',
      technician: name(ticket.technicien_prenom, ticket.technicien_nom),
      arriveAt: ticket.arrive_at,
      closAt: ticket.clos_at,
      constat: ticket.constat_tech,
      remarque: ticket.remarque_tech,
      etatArrivee: ticket.etat_arrivee,
      etatDepart: ticket.etat_depart,
      tempsTrajet: ticket.temps_trajet ?? null,
      devis: false,
      nomRapport: ticket.nom_rapport,
      interventionId: null,
      // A closed ticket's closing visit is its last; an ongoing one comes after the re-interventions too.
      at: ticket.clos_at ?? ticket.arrive_at ?? new Date(8.64e15).toISOString(),
    });
  }
  return visits.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** The deadline bar of a visit (spec §9): from the ticket's opening to its deadline, read at the visit's end (or now). */
function VisitDeadlineBar({ ticket, at }: { ticket: Ticket; at: string | Date }) {
  const bar = deadlineBar(ticket.created_at, ticket.echeance ?? ticket.delai, at);
  if (!bar) return <p className="muted small">Pas d’échéance pour ce ticket.</p>;
  const overrunHours = bar.overdue ? (Date.parse(typeof at === 'string' ? at : at.toISOString()) - Date.parse(bar.deadlineAt)) / 3_600_000 : 0;
  const text = bar.overdue
    ? `Échéance dépassée de ${formatOverrunHours(Math.ceil(overrunHours * 10) / 10)} · échéance ${formatDateTime(bar.deadlineAt)}`
    : `${formatNumber(Math.round(bar.share * 100))} % du délai écoulé · échéance ${formatDateTime(bar.deadlineAt)}`;
  return <ProgressBar label="Délai d’intervention" percent={bar.percent} colour={bar.colour} text={text} />;
}

function operatorName(ticket: Ticket): string | null {
  return name(ticket.operateur_prenom, ticket.operateur_nom);
}

/**
 * The ticket's story as a vertical timeline (UI.md): opened, taken in charge,
 * each visit with its deadline bar, closed, quote; who and when on each.
 */
export function InterventionTimeline({
  ticket,
  interventions,
  now,
  loading,
  reports = [],
  contacts = [],
  canSendReports = false,
}: {
  ticket: Ticket;
  interventions: readonly InterventionView[];
  now: Date;
  loading: boolean;
  /** The visits' reports and their e-mails (GET /api/tickets/{id}/reports). */
  reports?: readonly TicketReport[];
  /** Whom a report may be addressed to, besides the requester. */
  contacts?: readonly InterlocuteurOption[];
  /** tickets.devis: send a report by e-mail. */
  canSendReports?: boolean;
}) {
  const visits = ticketVisits(ticket, interventions);
  const technician = name(ticket.technicien_prenom, ticket.technicien_nom);
  const quote = ticketQuoteState(ticket);
  const closed = ticket.statut === 'clos';
  const operator = operatorName(ticket);

  return (
    <section className="card detail-card" aria-labelledby="timeline-title">
      <h2 id="timeline-title" className="detail-card__title">
        Historique des interventions
      </h2>
      <ol className="timeline">
        <li className="timeline__item timeline__item--opened">
          <div className="timeline__head">
            <span className="timeline__title">Ticket ouvert</span>
            <span className="timeline__meta">
              {formatDateTime(ticket.created_at)}
              {operator ? ` · par ${operator}` : ''}
            </span>
          </div>
          {visits.length === 0 && !closed ? <VisitDeadlineBar ticket={ticket} at={now} /> : null}
        </li>
        {technician ? (
          <li className="timeline__item timeline__item--charge">
            <div className="timeline__head">
              <span className="timeline__title">Pris en charge</span>
              <span className="timeline__meta">par {technician}</span>
            </div>
          </li>
        ) : null}
        {loading ? (
          <li className="timeline__item">
            <span className="muted">Chargement…</span>
          </li>
        ) : null}
        {visits.map((visit, index) => {
          const finished = closed && index === visits.length - 1;
          const report = reports.find((candidate) => candidate.intervention_id === visit.interventionId) ?? null;
          // The workers name the file even when the browser that closed the visit never saved the name.
          const filename = visit.nomRapport ?? (report?.status === 'generated' ? report.filename : null);
          return (
            <li key={visit.key} className={finished ? 'timeline__item timeline__item--finished' : 'timeline__item timeline__item--visit'}>
              <div className="timeline__head">
                <span className="timeline__title">{visit.title}</span>
                {finished ? <span className="chip status-clos">Terminé</span> : null}
                <span className="timeline__meta">{visit.technician ? `par ${visit.technician}` : ''}</span>
              </div>
              <VisitDeadlineBar ticket={ticket} at={visit.closAt ?? now} />
              <dl className="facts facts--compact">
                <Fact label="Arrivée">{visit.arriveAt ? formatDateTime(visit.arriveAt) : null}</Fact>
                <Fact label="Fin">{visit.closAt ? formatDateTime(visit.closAt) : null}</Fact>
                <Fact label="Temps de trajet">{visit.tempsTrajet}</Fact>
                <Fact label="État à l’arrivée">{visit.etatArrivee}</Fact>
                <Fact label="État au départ">{visit.etatDepart}</Fact>
                <Fact label="Devis">{visit.devis ? 'Demandé' : null}</Fact>
              </dl>
              {visit.constat ? (
                <div className="timeline__text">
                  <span className="timeline__label">Constat</span>
                  <p>{visit.constat}</p>
                </div>
              ) : null}
              {visit.remarque ? (
                <div className="timeline__text">
                  <span className="timeline__label">Remarque</span>
                  <p>{visit.remarque}</p>
                </div>
              ) : null}
              {filename ? (
                <ReportLink className="timeline__report" filename={filename}>
                  Télécharger le rapport ({filename})
                </ReportLink>
              ) : null}
              {report ? (
                <ReportDelivery
                  ticket={ticket}
                  report={report}
                  filename={filename}
                  contacts={contacts}
                  canSend={canSendReports}
                  // The API asks again for the closure's report or the latest re-intervention's (issue 32).
                  canRetry={report.intervention_id === null || index === visits.length - 1}
                />
              ) : null}
            </li>
          );
        })}
        {closed ? (
          <li className="timeline__item timeline__item--closed">
            <div className="timeline__head">
              <span className="timeline__title">Ticket clos</span>
              <span className="timeline__meta">{formatDateTime(ticket.clos_at)}</span>
            </div>
          </li>
        ) : null}
        {quote === 'pending' ? (
          <li className="timeline__item timeline__item--quote">
            <div className="timeline__head">
              <span className="timeline__title">Devis demandé</span>
              <span className="timeline__meta">{ticket.date_devis ? formatDateTime(ticket.date_devis) : ''}</span>
            </div>
          </li>
        ) : null}
        {quote === 'validated' ? (
          <li className="timeline__item timeline__item--quote">
            <div className="timeline__head">
              <span className="timeline__title">Devis validé n° {ticket.numero_devis}</span>
              <span className="timeline__meta">{formatDate(ticket.date_enregistrement_devis)}</span>
            </div>
          </li>
        ) : null}
      </ol>
    </section>
  );
}
