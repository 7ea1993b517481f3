import { TICKET_ARRIVAL_STATES, TICKET_DEPARTURE_STATES, type Ticket } from '@fsm/contracts';
import type { ReactNode } from 'react';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import type { InterlocuteurOption, UtilisateurOption } from '../../../lib/lookups/lookup-types';
import { personName } from '../../../lib/lookups/lookup-types';
import type { VisitDraft } from '../visit-draft';
import { signerName, type FieldErrors } from './visit-checks';
import { SignatureField } from './signature-field';

/** The visit wizard's three steps (spec §5): each edits the draft through `update`. */
interface StepProps {
  draft: VisitDraft;
  errors: FieldErrors;
  update: (patch: Partial<VisitDraft>) => void;
}

export function ArrivalStep({ draft, errors, update, technicians }: StepProps & { technicians: readonly UtilisateurOption[] }) {
  return (
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
  );
}

export function InterventionStep({ draft, errors, update }: StepProps) {
  return (
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
        hint="Laissez vide : l’heure de validation sera retenue."
        value={draft.date_cloture}
        onChange={(e) => update({ date_cloture: e.target.value })}
        error={errors.date_cloture}
      />
    </div>
  );
}

export function SignatureStep({
  draft,
  errors,
  update,
  ticket,
  contacts,
  canReport,
}: StepProps & { ticket: Ticket; contacts: readonly InterlocuteurOption[]; canReport: boolean }) {
  const demandeurLabel = `${personName(ticket)}${ticket.email ? ` (${ticket.email})` : ''} — demandeur`;
  return (
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
