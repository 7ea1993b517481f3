import { TICKET_MESSAGES, ticketCardLabel, ticketQuoteState, ticketUrgentClosure, formatOverrunHours, TICKET_LABELS, type Ticket } from '@fsm/contracts';
import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { WarningIcon } from '../../../components/ui/icons';
import { PhotoOverlay } from '../../../components/ui/photo-overlay';
import { StatusChip } from '../../../components/ui/status-chip';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatDurationMinutes } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PERMISSIONS, hasPermission } from '../../../lib/access';
import { useMostSpecificInterlocuteurs } from '../../../lib/lookups/get-interlocuteurs';
import { useUtilisateurs } from '../../../lib/lookups/get-utilisateurs';
import { personName } from '../../../lib/lookups/lookup-types';
import { QuoteValidationDialog } from '../../tickets/components/quote-validation-dialog';
import { useInterventions } from '../api/get-interventions';
import { useRecordArrival } from '../api/record-arrival';
import { useTicket } from '../api/get-ticket';
import { useTicketReports } from '../api/get-ticket-reports';
import { AuditHistory } from './audit-history';
import { Fact } from './fact';
import { InterventionTimeline } from './intervention-timeline';
import { QuoteBox } from './quote-box';
import { ReportLink } from './report-link';
import { TakeInChargeDialog } from './take-in-charge-dialog';
import { useNow } from './use-now';
import { useVisitDraft } from './use-visit-draft';
import { VisitWizard, WIZARD_TITLES } from './visit-wizard';

function BackLink() {
  return (
    <Link to="/tickets" className="btn btn--ghost back-link">
      <span aria-hidden="true">←</span> Retour aux tickets
    </Link>
  );
}

/** Ticket detail (spec §2 "Ticket detail"). */
export function TicketDetailScreen() {
  const { ticketId = '' } = useParams();
  const query = useTicket(ticketId);
  useDocumentTitle(query.data ? `Ticket ${query.data.num_chrono}` : 'Ticket');

  if (query.isPending) {
    return (
      <section className="stack">
        <BackLink />
        <p className="muted" role="status">
          {TICKET_LABELS.loading}
        </p>
      </section>
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <section className="stack" aria-labelledby="screen-title">
        <BackLink />
        <h1 id="screen-title">{notFound ? TICKET_MESSAGES.ticketNotFound : 'Ticket'}</h1>
        {notFound ? null : <Banner tone="error">{TICKET_MESSAGES.ticketLoadError}</Banner>}
      </section>
    );
  }
  return <TicketDetail ticket={query.data} />;
}

type Tab = 'detail' | 'history';

function TicketDetail({ ticket }: { ticket: Ticket }) {
  const user = useCurrentUser();
  const now = useNow();
  const canDevis = hasPermission(user, PERMISSIONS.ticketsDevis);
  const interventions = useInterventions(ticket.id);
  // Reports exist once a visit is recorded: the closure, or a re-intervention.
  const reports = useTicketReports(ticket.id, ticket.statut === 'clos' || ticket.interventions_supp_count > 0);
  const contacts = useMostSpecificInterlocuteurs({
    installationId: ticket.installation_id,
    siteId: ticket.site_id ?? null,
    clientId: ticket.client_id ?? null,
  });
  const active = ticket.statut === 'en_cours' || ticket.statut === 'intervention';
  const technicians = useUtilisateurs(active);

  // The wizard names who is signed in when they are a technician of the list (as the take-in-charge dialog does), else the ticket's.
  const myId = String(user.id);
  const wizardTechnicien = technicians.data?.some((t) => t.id === myId) ? myId : ticket.id_technicien;
  const draft = useVisitDraft(user.id, ticket, active, wizardTechnicien);
  const arrival = useRecordArrival();
  const storedDraft = draft.stored;
  const [taking, setTaking] = useState(false);
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const [validatingQuote, setValidatingQuote] = useState(false);
  const [photoOpen, setPhotoOpen] = useState(false);
  const [tab, setTab] = useState<Tab>('detail');
  const tabsId = useId();
  const discardDraft = () => {
    draft.discard();
    setConfirmingDiscard(false);
  };

  // The closure's report, also when the browser that closed the ticket never saved its name.
  const closureReport =
    ticket.nom_rapport ?? reports.data?.find((report) => report.intervention_id === null && report.status === 'generated')?.filename ?? null;
  const label = ticketCardLabel(ticket);
  const closure = ticketUrgentClosure(ticket);
  const quote = ticketQuoteState(ticket);
  const technician = `${ticket.technicien_prenom ?? ''} ${ticket.technicien_nom ?? ''}`.trim();

  return (
    <article className="stack ticket-detail" aria-labelledby="screen-title">
      <BackLink />
      <header className="detail-header">
        <div>
          <h1 id="screen-title">Ticket {ticket.num_chrono}</h1>
          <p className="detail-header__sub">
            {ticket.client_nom} · {ticket.site_nom} · {ticket.installation_nom}
          </p>
        </div>
        <div className="cluster">
          {label === 'Urgent' ? (
            <span className="chip chip--urgent">
              <WarningIcon />
              Urgent
            </span>
          ) : null}
          <StatusChip statut={ticket.statut} />
          {closure.closedUrgent ? (
            <span className="ticket-card__flag ticket-card__flag--urgent">
              <WarningIcon label={TICKET_LABELS.closedUrgent} />
              {TICKET_LABELS.closedUrgent}
              {closure.overrunHours !== null ? ` · dépassement ${formatOverrunHours(closure.overrunHours)}` : ''}
            </span>
          ) : null}
        </div>
      </header>

      <div className="tabs" role="tablist" aria-label="Vues du ticket">
        <button
          type="button"
          role="tab"
          id={`${tabsId}-tab-detail`}
          aria-selected={tab === 'detail'}
          aria-controls={`${tabsId}-panel-detail`}
          className="tabs__tab"
          onClick={() => setTab('detail')}
        >
          Détail
        </button>
        <button
          type="button"
          role="tab"
          id={`${tabsId}-tab-history`}
          aria-selected={tab === 'history'}
          aria-controls={`${tabsId}-panel-history`}
          className="tabs__tab"
          onClick={() => setTab('history')}
        >
          Historique
        </button>
      </div>

      {tab === 'history' ? (
        <div role="tabpanel" id={`${tabsId}-panel-history`} aria-labelledby={`${tabsId}-tab-history`} className="card detail-card">
          <AuditHistory ticketId={ticket.id} />
        </div>
      ) : (
        <div role="tabpanel" id={`${tabsId}-panel-detail`} aria-labelledby={`${tabsId}-tab-detail`} className="detail-layout">
          {/* Its own card, first: on a phone it comes before the actions (what is wrong, then what to do). */}
          <section className="card detail-card detail-layout__problem" aria-labelledby="problem-title">
            <h2 id="problem-title" className="detail-card__title">
              Problème constaté
            </h2>
            <p className="detail-problem">{ticket.probleme}</p>
          </section>
          <div className="detail-layout__main stack">
            <section className="card detail-card" aria-labelledby="info-title">
              <h2 id="info-title" className="detail-card__title">
                Informations
              </h2>
              <div className="info-grid">
                <dl className="facts">
                  <Fact label="Client">{ticket.client_nom}</Fact>
                  <Fact label="Site">
                    {ticket.site_nom}
                    <br />
                    <span className="muted">
                      {[ticket.site_adresse, [ticket.site_code_postal, ticket.site_ville].filter(Boolean).join(' ')].filter(Boolean).join(', ')}
                    </span>
                  </Fact>
                  <Fact label="Installation">{ticket.installation_nom}</Fact>
                  <Fact label="Métier">{ticket.metier_nom}</Fact>
                  <Fact label="Astreinte">{ticket.astreinte === 1 ? 'Oui' : 'Non'}</Fact>
                  <Fact label="Demandé le">{formatDateTime(ticket.created_at)}</Fact>
                  <Fact label="Enregistré par">{personName({ prenom: ticket.operateur_prenom ?? '', nom: ticket.operateur_nom ?? '' }) || null}</Fact>
                </dl>
                {ticket.photo ? (
                  <button type="button" className="detail-photo" onClick={() => setPhotoOpen(true)} aria-label="Agrandir la photo">
                    <img src={ticket.photo} alt={`Photo du ticket ${ticket.num_chrono}`} />
                  </button>
                ) : null}
              </div>
            </section>

            <InterventionTimeline
              ticket={ticket}
              interventions={interventions.data ?? []}
              now={now}
              loading={interventions.isPending}
              reports={reports.data ?? []}
              contacts={contacts.data ?? []}
              canSendReports={canDevis}
            />
          </div>

          <aside className="detail-layout__aside stack" aria-label="Résumé et actions">
            <section className="card detail-card" aria-labelledby="actions-title">
              <h2 id="actions-title" className="detail-card__title">
                Actions rapides
              </h2>
              {ticket.statut === 'clos' ? (
                <p className="muted">Ticket clos : aucune action.</p>
              ) : (
                <div className="actions">
                  {!active ? (
                    <button type="button" className="btn btn--primary btn--block" onClick={() => setTaking(true)}>
                      Prendre en charge
                    </button>
                  ) : null}
                  {active && ticket.arrive_at ? (
                    <p className="muted">Sur site depuis le {formatDateTime(ticket.arrive_at)}</p>
                  ) : null}
                  {active && !ticket.arrive_at ? (
                    <button
                      type="button"
                      className="btn btn--block"
                      onClick={() => arrival.mutate({ ticketId: ticket.id })}
                      disabled={arrival.isPending}
                      aria-busy={arrival.isPending || undefined}
                    >
                      Je suis sur site
                    </button>
                  ) : null}
                  {arrival.isError ? <Banner tone="error">{errorMessage(arrival.error, TICKET_MESSAGES.serverError)}</Banner> : null}
                  {active && storedDraft ? (
                    <>
                      <button type="button" className="btn btn--primary btn--block" onClick={() => draft.open(storedDraft.mode)}>
                        Reprendre la saisie ({WIZARD_TITLES[storedDraft.mode].toLocaleLowerCase('fr-FR')})
                      </button>
                      <button type="button" className="btn btn--ghost btn--block" onClick={() => setConfirmingDiscard(true)}>
                        Abandonner la saisie
                      </button>
                    </>
                  ) : null}
                  {active && !storedDraft ? (
                    <>
                      <button type="button" className="btn btn--primary btn--block" onClick={() => draft.open('close')}>
                        Clôturer le ticket
                      </button>
                      <button type="button" className="btn btn--block" onClick={() => draft.open('reintervention')}>
                        Ré-intervention
                      </button>
                    </>
                  ) : null}
                </div>
              )}
            </section>

            <section className="card detail-card" aria-labelledby="summary-title">
              <h2 id="summary-title" className="detail-card__title">
                Résumé
              </h2>
              <dl className="facts">
                <Fact label="Technicien">{technician || <span className="muted">Non pris en charge</span>}</Fact>
                <Fact label="Délai">{ticket.delai !== null ? `${ticket.delai} h` : null}</Fact>
                <Fact label="Échéance">{ticket.echeance ? formatDateTime(ticket.echeance) : null}</Fact>
                <Fact label={ticket.statut === 'clos' ? 'Durée' : 'Temps écoulé'}>{formatDurationMinutes(ticket.minutes_ecoulees)}</Fact>
                <Fact label="Interventions">{String(ticket.interventions_count)}</Fact>
                <Fact label="Clos le">{ticket.clos_at ? formatDateTime(ticket.clos_at) : null}</Fact>
                <Fact label="Rapport">
                  {closureReport ? <ReportLink filename={closureReport}>Télécharger le rapport</ReportLink> : null}
                </Fact>
              </dl>
            </section>

            <QuoteBox ticket={ticket} now={now} onValidate={canDevis && quote === 'pending' ? () => setValidatingQuote(true) : undefined} />

            <ContactCard ticket={ticket} contacts={contacts} />
          </aside>
        </div>
      )}

      {/* A draft may hold what took the longest on site (the signatures): it is never dropped on one tap. */}
      <ConfirmDialog
        open={confirmingDiscard}
        title="Abandonner la saisie"
        message="Abandonner la saisie en cours ? Ce qui a été saisi, signatures comprises, sera perdu."
        confirmLabel="Abandonner"
        onConfirm={discardDraft}
        onCancel={() => setConfirmingDiscard(false)}
      />
      {taking ? <TakeInChargeDialog ticket={ticket} open onClose={() => setTaking(false)} /> : null}
      <QuoteValidationDialog ticket={validatingQuote ? ticket : null} onClose={() => setValidatingQuote(false)} />
      <PhotoOverlay src={photoOpen ? ticket.photo : null} alt={`Photo du ticket ${ticket.num_chrono}`} onClose={() => setPhotoOpen(false)} />
      {draft.editing ? (
        <VisitWizard
          ticket={ticket}
          draft={draft.editing}
          onChange={draft.update}
          onSent={draft.sent}
          technicians={technicians.data ?? []}
          contacts={contacts.data ?? []}
          canReport={canDevis}
          onClose={draft.close}
        />
      ) : null}
    </article>
  );
}

function ContactCard({ ticket, contacts }: { ticket: Ticket; contacts: ReturnType<typeof useMostSpecificInterlocuteurs> }) {
  return (
    <section className="card detail-card" aria-labelledby="contact-title">
      <h2 id="contact-title" className="detail-card__title">
        Contact
      </h2>
      <div className="contact">
        <p className="contact__name">
          {personName(ticket)} <span className="muted">· demandeur</span>
        </p>
        {ticket.telephone ? (
          <a className="contact__line" href={`tel:${ticket.telephone.replace(/\s+/g, '')}`}>
            {ticket.telephone}
          </a>
        ) : null}
        {ticket.email ? (
          <a className="contact__line" href={`mailto:${ticket.email}`}>
            {ticket.email}
          </a>
        ) : null}
      </div>
      <h3 className="detail-card__subtitle">Interlocuteurs</h3>
      {contacts.isError ? <Banner tone="error">{TICKET_MESSAGES.contactsLoadError}</Banner> : null}
      {contacts.isPending && contacts.fetchStatus !== 'idle' ? <p className="muted">Chargement…</p> : null}
      {contacts.data && contacts.data.length === 0 ? <p className="muted">Aucun interlocuteur.</p> : null}
      {contacts.data && contacts.data.length > 0 ? (
        <ul className="contact-list">
          {contacts.data.map((c) => (
            <li key={c.id} className="contact">
              <p className="contact__name">{personName(c)}</p>
              {c.telephone ? (
                <a className="contact__line" href={`tel:${c.telephone.replace(/\s+/g, '')}`}>
                  {c.telephone}
                </a>
              ) : null}
              {c.email ? (
                <a className="contact__line" href={`mailto:${c.email}`}>
                  {c.email}
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
