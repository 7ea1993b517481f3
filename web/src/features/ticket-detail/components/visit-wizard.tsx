import { TICKET_MESSAGES, ticketVisitBodySchema, type TicketVisitBody, type Ticket } from '@fsm/contracts';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { CloseActions } from '../../../components/ui/form-dialog';
import { errorMessage } from '../../../lib/api-client';
import type { InterlocuteurOption, UtilisateurOption } from '../../../lib/lookups/lookup-types';
import { useRecordVisit, type VisitMode } from '../api/record-visit';
import type { VisitDraft, WizardStep } from '../visit-draft';
import { AfterVisitReportPanel } from './after-visit-report';
import { useAfterVisitReport } from './use-after-visit-report';
import { STEP_OF_FIELD, checkStep, toBody, type FieldErrors } from './visit-checks';
import { ArrivalStep, InterventionStep, SignatureStep } from './visit-wizard-steps';

export const WIZARD_TITLES: Record<VisitMode, string> = {
  close: 'Clôturer le ticket',
  reintervention: 'Ré-intervention',
};

/** The one button that sends (spec §5: "only via the explicit final-step button"). */
const SUBMIT_LABELS: Record<VisitMode, string> = {
  close: 'Valider la clôture',
  reintervention: 'Valider la ré-intervention',
};

const STEP_TITLES: Record<WizardStep, string> = {
  1: 'Arrivée sur site',
  2: 'Intervention',
  3: 'Signatures',
};

export interface VisitWizardProps {
  ticket: Ticket;
  draft: VisitDraft;
  /** Saves a change to the draft (useVisitDraft). */
  onChange: (patch: Partial<VisitDraft>) => void;
  /** The visit was recorded: the draft is dropped. */
  onSent: () => void;
  technicians: readonly UtilisateurOption[];
  contacts: readonly InterlocuteurOption[];
  /** tickets.devis: generate the report, save its name, e-mail it. */
  canReport: boolean;
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

/** Enter in a one-line field, a select or a checkbox does nothing here (spec §5). */
function blockEnter(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'Enter') return;
  const target = event.target as HTMLElement;
  if (target.tagName === 'TEXTAREA' || target.tagName === 'BUTTON' || target.tagName === 'A') return;
  event.preventDefault();
}

function VisitWizardBody({ ticket, draft, onChange, onSent, technicians, contacts, canReport, onClose }: VisitWizardProps) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const saga = useAfterVisitReport({ ticket, technicians, contacts, canReport });
  const mutation = useRecordVisit();
  const headingRef = useRef<HTMLHeadingElement>(null);

  const update = (patch: Partial<VisitDraft>) => {
    onChange(patch);
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

  const submit = () => {
    if (mutation.isPending || done) return;
    const all = { ...checkStep(1, draft), ...checkStep(2, draft), ...checkStep(3, draft) };
    const parsed = ticketVisitBodySchema.safeParse(toBody(draft, ticket));
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
          onSent();
          setDone(true);
          void saga.start(sent);
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
        {canReport ? <AfterVisitReportPanel saga={saga} recipientIds={draft.recipients} /> : null}
        <CloseActions label="Terminer" onClose={onClose} />
      </div>
    );
  }

  const step = draft.step;
  const busy = mutation.isPending;

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

      {step === 1 ? <ArrivalStep draft={draft} errors={errors} update={update} technicians={technicians} /> : null}
      {step === 2 ? <InterventionStep draft={draft} errors={errors} update={update} /> : null}
      {step === 3 ? (
        <SignatureStep draft={draft} errors={errors} update={update} ticket={ticket} contacts={contacts} canReport={canReport} />
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
