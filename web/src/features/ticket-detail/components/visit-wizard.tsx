import {
  TICKET_ARRIVAL_STATES,
  TICKET_DEPARTURE_STATES,
  TICKET_MESSAGES,
  TICKET_TRAVEL_TIME_PATTERN,
  TicketVisitBodySchema,
  parseTicketDateTime,
  type TicketVisitBody,
} from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { errorMessage } from '../../../lib/api-client';
import type { InterlocuteurOption, UtilisateurOption } from '../../lookups/api/lookup-types';
import { personName } from '../../lookups/api/lookup-types';
import { ticketKeys } from '../../tickets/api/ticket-keys';
import type { TicketView } from '../../tickets/api/ticket-view';
import { getInterventions } from '../api/get-interventions';
import { generateReport, ReportError, type GeneratedReport } from '../api/generate-report';
import { useRecordVisit, type VisitMode } from '../api/record-visit';
import { saveInterventionReportName, saveTicketReportName } from '../api/save-report-name';
import { sendReportEmail, type ReportRecipient } from '../api/send-report-email';
import { clearDraft, saveDraft, type VisitDraft, type WizardStep } from '../visit-draft';
import { ReportLink } from './report-link';
import { SignatureField } from './signature-field';

export const WIZARD_TITLES: Record<VisitMode, string> = {
  close: 'Clôturer le ticket',
  reintervention: 'Ré-intervention',
};

/** The one button that sends (spec §5: "only via the explicit final-step button"). */
export const SUBMIT_LABELS: Record<VisitMode, string> = {
  close: 'Valider la clôture',
  reintervention: 'Valider la ré-intervention',
};

const STEP_TITLES: Record<WizardStep, string> = {
  1: 'Arrivée sur site',
  2: 'Intervention',
  3: 'Signatures',
};

type FieldErrors = Partial<Record<keyof VisitDraft, string>>;

const STEP_OF_FIELD: Partial<Record<string, WizardStep>> = {
  technicien_id: 1,
  arrive_at: 1,
  etat_arrivee: 1,
  temps_trajet: 1,
  constat_tech: 2,
  remarque_tech: 2,
  etat_depart: 2,
  devis: 2,
  date_cloture: 2,
  signature_client: 3,
  signataire_nom: 3,
  signataire_qualite: 3,
  signature_technicien: 3,
};

export interface VisitWizardProps {
  ticket: TicketView;
  draft: VisitDraft;
  storageKey: string;
  technicians: readonly UtilisateurOption[];
  contacts: readonly InterlocuteurOption[];
  /** tickets.devis: generate the report, save its name, e-mail it. */
  canReport: boolean;
  /** Closes the wizard; the draft stays (marked closed) unless the visit was sent. */
  onClose: () => void;
}

/**
 * The 3-step close / re-intervention wizard (spec §2, §4, §5). Every change is
 * saved to the draft at once; only the last step's explicit button sends; Enter
 * in a field never advances or sends (a textarea keeps its new line). After a
 * successful visit the report is generated, its name saved on the ticket
 * (closure) or on the latest intervention, offered for download and e-mailed.
 */
export function VisitWizard(props: VisitWizardProps) {
  const { draft, onClose } = props;
  return (
    <Dialog open title={WIZARD_TITLES[draft.mode]} onClose={onClose} className="dialog--wizard">
      <VisitWizardBody {...props} />
    </Dialog>
  );
}

function checkStep(step: WizardStep, draft: VisitDraft): FieldErrors {
  const errors: FieldErrors = {};
  if (step === 1) {
    if (!draft.etat_arrivee) errors.etat_arrivee = 'Choisissez l’état de l’installation à l’arrivée.';
    if (draft.temps_trajet && !TICKET_TRAVEL_TIME_PATTERN.test(draft.temps_trajet)) errors.temps_trajet = TICKET_MESSAGES.invalidTravelTime;
    if (draft.arrive_at && parseTicketDateTime(draft.arrive_at) === null) errors.arrive_at = TICKET_MESSAGES.invalidDate;
  }
  if (step === 2) {
    if (!draft.constat_tech.trim()) errors.constat_tech = TICKET_MESSAGES.constatRequired;
    if (!draft.etat_depart) errors.etat_depart = 'Choisissez l’état de l’installation au départ.';
    if (draft.date_cloture && parseTicketDateTime(draft.date_cloture) === null) errors.date_cloture = TICKET_MESSAGES.invalidDate;
  }
  if (step === 3) {
    if (!draft.signature_client) errors.signature_client = TICKET_MESSAGES.signatureClientRequired;
    if (!draft.signature_technicien) errors.signature_technicien = TICKET_MESSAGES.signatureTechnicienRequired;
  }
  return errors;
}

/** The requester signs for the client unless the technician typed someone else. */
function signerName(draft: VisitDraft, ticket: TicketView): string {
  return draft.signataire_nom ?? personName(ticket);
}

function toBody(draft: VisitDraft, ticket: TicketView) {
  return {
    constat_tech: draft.constat_tech,
    remarque_tech: draft.remarque_tech,
    devis: draft.devis ? 1 : 0,
    date_cloture: draft.date_cloture ? (parseTicketDateTime(draft.date_cloture) ?? draft.date_cloture) : undefined,
    arrive_at: draft.arrive_at ? (parseTicketDateTime(draft.arrive_at) ?? draft.arrive_at) : undefined,
    etat_arrivee: draft.etat_arrivee,
    etat_depart: draft.etat_depart,
    temps_trajet: draft.temps_trajet,
    signature_client: draft.signature_client ?? '',
    signature_technicien: draft.signature_technicien ?? '',
    technicien_id: draft.technicien_id || undefined,
    signataire_nom: signerName(draft, ticket),
    signataire_qualite: draft.signataire_qualite,
  };
}

/** Enter in a one-line field, a select or a checkbox does nothing here (spec §5). */
function blockEnter(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'Enter') return;
  const target = event.target as HTMLElement;
  if (target.tagName === 'TEXTAREA' || target.tagName === 'BUTTON' || target.tagName === 'A') return;
  event.preventDefault();
}

interface ReportState {
  status: 'idle' | 'working' | 'done' | 'error';
  message?: string;
  report?: GeneratedReport;
}

interface EmailState {
  status: 'idle' | 'working' | 'sent' | 'failed' | 'error';
  sentTo?: string[];
}

function VisitWizardBody({ ticket, draft: initial, storageKey, technicians, contacts, canReport, onClose }: VisitWizardProps) {
  const [draft, setDraftState] = useState<VisitDraft>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [report, setReport] = useState<ReportState>({ status: 'idle' });
  const [email, setEmail] = useState<EmailState>({ status: 'idle' });
  const mutation = useRecordVisit();
  const queryClient = useQueryClient();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const sentRef = useRef(false);

  const update = (patch: Partial<VisitDraft>) => {
    setDraftState((current) => {
      const next = { ...current, ...patch };
      if (!sentRef.current) saveDraft(storageKey, next);
      return next;
    });
    setErrors((current) => {
      const keys = Object.keys(patch) as (keyof VisitDraft)[];
      if (!keys.some((k) => current[k])) return current;
      const next = { ...current };
      for (const k of keys) delete next[k];
      return next;
    });
  };

  useEffect(() => {
    headingRef.current?.focus();
  }, [draft.step, done]);

  const goTo = (step: WizardStep) => {
    setProblem(null);
    update({ step });
  };

  const next = () => {
    const found = checkStep(draft.step, draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    goTo((draft.step + 1) as WizardStep);
  };

  const recipientsFor = (ids: readonly string[]): ReportRecipient[] => {
    const out: ReportRecipient[] = [];
    if (ids.includes('demandeur') && ticket.email) out.push({ email: ticket.email, nom: ticket.nom, prenom: ticket.prenom });
    for (const c of contacts) {
      if (ids.includes(c.id) && c.email && !out.some((r) => r.email === c.email)) out.push({ email: c.email, nom: c.nom, prenom: c.prenom });
    }
    return out;
  };

  const technicianOf = (sent: VisitDraft) => {
    const chosen = technicians.find((t) => t.id === sent.technicien_id);
    return chosen
      ? { nom: chosen.nom, prenom: chosen.prenom }
      : { nom: ticket.technicien_nom ?? '', prenom: ticket.technicien_prenom ?? '' };
  };

  const emailReport = async (generated: GeneratedReport, recipients: ReportRecipient[]) => {
    await sendReportEmail({
      recipients,
      ticketNumber: ticket.num_chrono,
      ticketInfo: { site: ticket.site_nom, installation: ticket.installation_nom },
      downloadUrl: generated.downloadUrl,
    });
  };

  /** After the visit: report, its name, reload, e-mail. Only the report's own failure is shown (spec §8). */
  const afterVisit = async (sent: VisitDraft) => {
    if (!canReport) return;
    setReport({ status: 'working' });
    let generated: GeneratedReport;
    try {
      generated = await generateReport({
        ticketId: ticket.id,
        isReintervention: sent.mode === 'reintervention',
        signature: { client: sent.signature_client, technicien: sent.signature_technicien },
        demandeur: { prenom: ticket.prenom, nom: ticket.nom, email: ticket.email },
        technicien: technicianOf(sent),
      });
    } catch (error) {
      setReport({ status: 'error', message: error instanceof ReportError ? error.message : errorMessage(error, TICKET_MESSAGES.serverError) });
      return;
    }
    // The answer's link is fresh: the download button starts from it and renews it like any report link.
    queryClient.setQueryData(ticketKeys.reportLink(generated.filename), generated);
    setReport({ status: 'done', report: generated });

    try {
      if (sent.mode === 'close') {
        await saveTicketReportName(ticket.id, generated.filename);
      } else {
        const interventions = await getInterventions(ticket.id);
        const latest = interventions[interventions.length - 1];
        if (latest) await saveInterventionReportName(ticket.id, latest.id, generated.filename);
      }
    } catch (error) {
      console.error('Enregistrement du nom du rapport impossible', error);
    }
    try {
      await queryClient.invalidateQueries({ queryKey: ticketKeys.detail(ticket.id) });
    } catch (error) {
      console.error('Rechargement du ticket impossible', error);
    }

    const recipients = recipientsFor(sent.recipients);
    if (recipients.length === 0) return;
    setEmail({ status: 'working' });
    try {
      await emailReport(generated, recipients);
      setEmail({ status: 'sent', sentTo: recipients.map((r) => r.email) });
    } catch (error) {
      console.error('Envoi du rapport par e-mail impossible', error);
      setEmail({ status: 'failed' });
    }
  };

  const resendEmail = async () => {
    if (report.status !== 'done' || !report.report) return;
    const recipients = recipientsFor(draft.recipients);
    setEmail({ status: 'working' });
    try {
      await emailReport(report.report, recipients);
      setEmail({ status: 'sent', sentTo: recipients.map((r) => r.email) });
    } catch {
      setEmail({ status: 'error' });
    }
  };

  const submit = () => {
    if (mutation.isPending || done) return;
    const all = { ...checkStep(1, draft), ...checkStep(2, draft), ...checkStep(3, draft) };
    const parsed = TicketVisitBodySchema.safeParse(toBody(draft, ticket));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = typeof issue?.path[0] === 'string' ? (issue.path[0] as keyof VisitDraft) : undefined;
      if (field && !all[field] && issue) all[field] = issue.message;
    }
    const firstField = (Object.keys(all) as (keyof VisitDraft)[]).sort(
      (a, b) => (STEP_OF_FIELD[a] ?? 3) - (STEP_OF_FIELD[b] ?? 3),
    )[0];
    if (firstField || !parsed.success) {
      setErrors(all);
      const step = firstField ? (STEP_OF_FIELD[firstField] ?? 3) : 3;
      if (step !== draft.step) update({ step });
      return;
    }
    const body: TicketVisitBody = parsed.data;
    const sent = draft;
    mutation.mutate(
      { ticketId: ticket.id, mode: draft.mode, body },
      {
        onSuccess: () => {
          sentRef.current = true;
          clearDraft(storageKey);
          setDone(true);
          void afterVisit(sent);
        },
        onError: (error) => setProblem(errorMessage(error, TICKET_MESSAGES.serverError)),
      },
    );
  };

  if (done) {
    return (
      <div className="stack wizard-done">
        <h3 ref={headingRef} tabIndex={-1} className="wizard__step-title">
          {draft.mode === 'close' ? 'Ticket clos' : 'Ré-intervention enregistrée'}
        </h3>
        <Banner tone="success">
          {draft.mode === 'close' ? `Le ticket ${ticket.num_chrono} est clos.` : `La ré-intervention sur le ticket ${ticket.num_chrono} est enregistrée.`}
        </Banner>
        {canReport ? (
          <section className="stack" aria-label="Rapport d’intervention">
            {report.status === 'working' ? (
              <p role="status" className="muted">
                Génération du rapport…
              </p>
            ) : null}
            {report.status === 'error' ? <Banner tone="error">{report.message}</Banner> : null}
            {report.status === 'done' && report.report ? (
              <>
                <p>
                  <ReportLink className="btn btn--primary" filename={report.report.filename} download>
                    Télécharger le rapport
                  </ReportLink>
                </p>
                {email.status === 'working' ? (
                  <p role="status" className="muted">
                    Envoi du rapport par e-mail…
                  </p>
                ) : null}
                {email.status === 'sent' ? (
                  <p role="status" className="muted">
                    Rapport envoyé à {email.sentTo?.join(', ')}.
                  </p>
                ) : null}
                {email.status === 'error' ? <Banner tone="error">{TICKET_MESSAGES.reportEmailError}</Banner> : null}
                {(email.status === 'failed' || email.status === 'error') && recipientsFor(draft.recipients).length > 0 ? (
                  <p>
                    <button type="button" className="btn" onClick={() => void resendEmail()}>
                      Envoyer le rapport par e-mail
                    </button>
                  </p>
                ) : null}
              </>
            ) : null}
          </section>
        ) : null}
        <div className="dialog__actions">
          <button type="button" className="btn btn--primary" onClick={onClose}>
            Terminer
          </button>
        </div>
      </div>
    );
  }

  const step = draft.step;
  const busy = mutation.isPending;
  const demandeurLabel = `${personName(ticket)}${ticket.email ? ` (${ticket.email})` : ''} — demandeur`;

  return (
    <form className="wizard" noValidate onSubmit={(e) => e.preventDefault()} onKeyDown={blockEnter}>
      <ol className="wizard__steps" aria-label="Étapes">
        {([1, 2, 3] as const).map((n) => (
          <li key={n} className={n === step ? 'wizard__step wizard__step--current' : n < step ? 'wizard__step wizard__step--done' : 'wizard__step'} aria-current={n === step ? 'step' : undefined}>
            <span className="wizard__step-number">{n}</span>
            <span className="wizard__step-label">{STEP_TITLES[n]}</span>
          </li>
        ))}
      </ol>
      <h3 ref={headingRef} tabIndex={-1} className="wizard__step-title">
        Étape {step} sur 3 : {STEP_TITLES[step]}
      </h3>
      {problem ? <Banner tone="error">{problem}</Banner> : null}

      {step === 1 ? (
        <div className="stack">
          <SelectField
            label="Technicien"
            value={draft.technicien_id}
            onChange={(e) => update({ technicien_id: e.target.value })}
            error={errors.technicien_id}
          >
            <option value="">Technicien en charge</option>
            {technicians.map((t) => (
              <option key={t.id} value={t.id}>
                {personName(t)}
              </option>
            ))}
          </SelectField>
          <div className="form-grid">
            <TextField
              label="Date et heure d’arrivée"
              type="datetime-local"
              value={draft.arrive_at}
              onChange={(e) => update({ arrive_at: e.target.value })}
              error={errors.arrive_at}
            />
            <TextField
              label="Temps de trajet (HH:mm)"
              inputMode="numeric"
              placeholder="00:00"
              value={draft.temps_trajet}
              onChange={(e) => update({ temps_trajet: e.target.value })}
              error={errors.temps_trajet}
            />
          </div>
          <ChoiceGroup
            legend="État de l’installation à l’arrivée"
            name="etat_arrivee"
            options={TICKET_ARRIVAL_STATES}
            value={draft.etat_arrivee}
            onChange={(value) => update({ etat_arrivee: value })}
            error={errors.etat_arrivee}
          />
        </div>
      ) : null}

      {step === 2 ? (
        <div className="stack">
          <TextareaField
            label="Constat du technicien"
            required
            rows={5}
            value={draft.constat_tech}
            onChange={(e) => update({ constat_tech: e.target.value })}
            error={errors.constat_tech}
          />
          <TextareaField
            label="Remarque"
            rows={3}
            value={draft.remarque_tech}
            onChange={(e) => update({ remarque_tech: e.target.value })}
            error={errors.remarque_tech}
          />
          <ChoiceGroup
            legend="État de l’installation au départ"
            name="etat_depart"
            options={TICKET_DEPARTURE_STATES}
            value={draft.etat_depart}
            onChange={(value) => update({ etat_depart: value })}
            error={errors.etat_depart}
          />
          <label className="check-option check-option--large">
            <input type="checkbox" checked={draft.devis} onChange={(e) => update({ devis: e.target.checked })} />
            <span>Un devis est à établir</span>
          </label>
          <TextField
            label={draft.mode === 'close' ? 'Date et heure de fin d’intervention' : 'Date et heure de fin de la visite'}
            type="datetime-local"
            value={draft.date_cloture}
            onChange={(e) => update({ date_cloture: e.target.value })}
            error={errors.date_cloture}
          />
        </div>
      ) : null}

      {step === 3 ? (
        <div className="stack">
          <SignatureField
            label="Signature du client"
            value={draft.signature_client}
            onChange={(value) => update({ signature_client: value })}
            error={errors.signature_client}
          />
          <div className="form-grid">
            <TextField
              label="Nom du signataire (client)"
              value={signerName(draft, ticket)}
              onChange={(e) => update({ signataire_nom: e.target.value })}
              error={errors.signataire_nom}
              autoComplete="off"
            />
            <TextField
              label="Qualité du signataire"
              hint="Par exemple : Responsable sécurité. Vide : client (demandeur)."
              value={draft.signataire_qualite ?? ''}
              onChange={(e) => update({ signataire_qualite: e.target.value })}
              error={errors.signataire_qualite}
              autoComplete="off"
            />
          </div>
          <SignatureField
            label="Signature du technicien"
            value={draft.signature_technicien}
            onChange={(value) => update({ signature_technicien: value })}
            error={errors.signature_technicien}
          />
          {canReport ? (
            <fieldset className="form-section">
              <legend>Envoyer le rapport à</legend>
              <label className="check-option">
                <input
                  type="checkbox"
                  checked={draft.recipients.includes('demandeur')}
                  disabled={!ticket.email}
                  onChange={(e) =>
                    update({ recipients: e.target.checked ? [...draft.recipients, 'demandeur'] : draft.recipients.filter((r) => r !== 'demandeur') })
                  }
                />
                <span>{demandeurLabel}</span>
              </label>
              {contacts
                .filter((c) => c.email)
                .map((c) => (
                  <label key={c.id} className="check-option">
                    <input
                      type="checkbox"
                      checked={draft.recipients.includes(c.id)}
                      onChange={(e) =>
                        update({ recipients: e.target.checked ? [...draft.recipients, c.id] : draft.recipients.filter((r) => r !== c.id) })
                      }
                    />
                    <span>
                      {personName(c)} ({c.email})
                    </span>
                  </label>
                ))}
            </fieldset>
          ) : null}
        </div>
      ) : null}

      <div className="wizard__nav">
        {step > 1 ? (
          <button type="button" className="btn" onClick={() => goTo((step - 1) as WizardStep)} disabled={busy}>
            Précédent
          </button>
        ) : (
          <button type="button" className="btn" onClick={onClose}>
            Plus tard
          </button>
        )}
        {step < 3 ? (
          <button type="button" className="btn btn--primary" onClick={next}>
            Suivant
          </button>
        ) : (
          <button type="button" className="btn btn--primary" onClick={submit} disabled={busy} aria-busy={busy || undefined}>
            {busy ? 'Envoi...' : SUBMIT_LABELS[draft.mode]}
          </button>
        )}
      </div>
      <p className="wizard__saved muted">Saisie enregistrée sur cet appareil jusqu’à l’envoi.</p>
    </form>
  );
}

function ChoiceGroup({
  legend,
  name,
  options,
  value,
  onChange,
  error,
}: {
  legend: string;
  name: string;
  options: readonly string[];
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}): ReactNode {
  return (
    <fieldset className="choice-group" aria-invalid={error ? true : undefined}>
      <legend className="field__label field__label--required">{legend}</legend>
      <div className="choice-group__options">
        {options.map((option) => (
          <label key={option} className={option === value ? 'choice choice--checked' : 'choice'}>
            <input type="radio" name={name} value={option} checked={option === value} onChange={() => onChange(option)} />
            <span>{option}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
