import { agenceBodySchema, agenceHorairesBodySchema, defaultAgenceHoraires, type Agence, type AgenceHoraire } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { checkForm, remainingErrors, type FieldErrors } from '../../../lib/form-errors';
import { AGENCE_MESSAGES, agenceErrorMessage } from '../api/agence-errors';
import { useCreateAgence } from '../api/create-agence';
import { agenceHorairesQuery, useAgenceHoraires } from '../api/get-agence-horaires';
import { agencesQuery } from '../api/get-agences';
import { useSetAgenceHoraires } from '../api/set-agence-horaires';
import { useUpdateAgence } from '../api/update-agence';
import { HorairesFieldset } from './horaires-fieldset';

interface AgenceFormValues {
  nom: string;
  adresse: string;
  cp_postal: string;
  ville: string;
  telephone: string;
}

const EMPTY: AgenceFormValues = { nom: '', adresse: '', cp_postal: '', ville: '', telephone: '' };

const formValues = (agence: Agence): AgenceFormValues => ({ nom: agence.nom, adresse: agence.adresse, cp_postal: agence.cp_postal, ville: agence.ville, telephone: agence.telephone });

function sameWeek(a: readonly AgenceHoraire[], b: readonly AgenceHoraire[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Add or edit an agency with its Monday–Friday hours. `agence` null means a new one. */
export function AgenceFormDialog({ agence, onClose }: { agence: Agence | null; onClose: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const editing = agence !== null;
  const [values, setValues] = useState<AgenceFormValues>(agence ? formValues(agence) : EMPTY);
  // The version the form's values were loaded at: the save is refused (409) if the agency changed since.
  const [version, setVersion] = useState(agence?.version);
  const horairesQuery = useAgenceHoraires(agence?.id ?? null);
  const initialWeek = editing ? horairesQuery.data : defaultAgenceHoraires();
  const [week, setWeek] = useState<AgenceHoraire[] | null>(editing ? null : defaultAgenceHoraires());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [weekErrors, setWeekErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateAgence();
  const update = useUpdateAgence();
  const setHoraires = useSetAgenceHoraires();
  const busy = create.isPending || update.isPending || setHoraires.isPending;
  const conflict = useEditConflict(
    async () => {
      if (!agence) return null;
      const [list, hours] = await Promise.all([
        queryClient.fetchQuery({ ...agencesQuery(), staleTime: 0 }),
        queryClient.fetchQuery({ ...agenceHorairesQuery(agence.id), staleTime: 0 }),
      ]);
      const fresh = list.find((candidate) => candidate.id === agence.id);
      return fresh ? { fresh, hours } : null;
    },
    ({ fresh, hours }) => {
      setValues(formValues(fresh));
      setVersion(fresh.version);
      setWeek(hours);
      setErrors({});
      setWeekErrors({});
    },
  );

  useEffect(() => {
    if (editing && horairesQuery.data && week === null) setWeek(horairesQuery.data);
  }, [editing, horairesQuery.data, week]);

  const set = (key: keyof AgenceFormValues) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  const checkValues = () => checkForm(agenceBodySchema, values);
  // The same rules as PUT /api/agences/{id}/horaires (HH:mm, both times of a half-day, closing after opening).
  const checkWeek = () => checkForm(agenceHorairesBodySchema, week ?? []);
  // After a refused save, each message follows its field: it goes once the field is fixed.
  const shownErrors = remainingErrors(errors, checkValues());
  const shownWeekErrors = remainingErrors(weekErrors, checkWeek());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    conflict.clear();
    const check = checkValues();
    const weekCheck = checkWeek();
    setErrors(check.ok ? {} : check.errors);
    setWeekErrors(weekCheck.ok ? {} : weekCheck.errors);
    if (!check.ok || !weekCheck.ok) return;
    try {
      if (agence) {
        const saved = await update.mutateAsync({ id: agence.id, body: { ...check.data, version } });
        setVersion(saved.version);
        // The hours are saved on the version the first call answered: a change made in between is refused too.
        if (week && initialWeek && !sameWeek(week, initialWeek)) await setHoraires.mutateAsync({ agenceId: agence.id, horaires: week, version: saved.version });
        toast.show('Agence modifiée.', { tone: 'success' });
      } else {
        const created = await create.mutateAsync(check.data);
        // A new agency opens with the default week: only a changed week needs the second call.
        if (week && !sameWeek(week, defaultAgenceHoraires())) await setHoraires.mutateAsync({ agenceId: created.id, horaires: week });
        toast.show('Agence créée.', { tone: 'success' });
      }
      onClose();
    } catch (error) {
      if (!conflict.caught(error)) setFailure(agenceErrorMessage(error, AGENCE_MESSAGES.saveError));
    }
  };

  return (
    <Dialog open title={editing ? "Modifier l'agence" : 'Ajouter une agence'} onClose={onClose} className="dialog--wide">
      <form className="stack" onSubmit={submit} noValidate>
        <TextField label="Nom" required value={values.nom} onChange={set('nom')} error={shownErrors.nom} />
        <TextField label="Adresse" required value={values.adresse} onChange={set('adresse')} error={shownErrors.adresse} />
        <div className="form-row">
          <TextField label="Code postal" required value={values.cp_postal} onChange={set('cp_postal')} error={shownErrors.cp_postal} inputMode="numeric" />
          <TextField label="Ville" required value={values.ville} onChange={set('ville')} error={shownErrors.ville} />
        </div>
        <TextField label="Téléphone" required type="tel" value={values.telephone} onChange={set('telephone')} error={shownErrors.telephone} />
        {week ? (
          <HorairesFieldset week={week} onChange={setWeek} disabled={busy} errors={shownWeekErrors} />
        ) : horairesQuery.isError ? (
          <Banner tone="error">{AGENCE_MESSAGES.horairesLoadError}</Banner>
        ) : (
          <p className="muted" role="status">
            Chargement…
          </p>
        )}
        {failure ? <Banner tone="error">{failure}</Banner> : null}
        {conflict.notice}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            Annuler
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy || (editing && !week)} aria-busy={busy || undefined}>
            Enregistrer
          </button>
        </div>
      </form>
    </Dialog>
  );
}
