import { agenceBodySchema, agenceHorairesBodySchema, defaultAgenceHoraires, type Agence, type AgenceHoraire } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { FormDialog } from '../../../components/ui/form-dialog';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { checkForm } from '../../../lib/form-errors';
import { useFormSubmit } from '../../../lib/use-form-submit';
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
      form.clearErrors();
    },
  );

  useEffect(() => {
    if (editing && horairesQuery.data && week === null) setWeek(horairesQuery.data);
  }, [editing, horairesQuery.data, week]);

  const set = (key: keyof AgenceFormValues) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  const form = useFormSubmit({
    // The fields and the week together; the week follows PUT /api/agences/{id}/horaires (HH:mm, both
    // times of a half-day, closing after opening), its messages keyed `<day index>.<field>`.
    check: () => {
      const fields = checkForm(agenceBodySchema, values);
      const hours = checkForm(agenceHorairesBodySchema, week ?? []);
      if (fields.ok && hours.ok) return fields;
      const errors = { ...(fields.ok ? {} : fields.errors), ...(hours.ok ? {} : hours.errors) };
      return { ok: false as const, errors, first: Object.values(errors)[0] ?? '' };
    },
    save: async (data) => {
      if (agence) {
        const saved = await update.mutateAsync({ id: agence.id, body: { ...data, version } });
        setVersion(saved.version);
        // The hours are saved on the version the first call answered: a change made in between is refused too.
        if (week && initialWeek && !sameWeek(week, initialWeek)) await setHoraires.mutateAsync({ agenceId: agence.id, horaires: week, version: saved.version });
        toast.show('Agence modifiée.', { tone: 'success' });
      } else {
        const created = await create.mutateAsync(data);
        // A new agency opens with the default week: only a changed week needs the second call.
        if (week && !sameWeek(week, defaultAgenceHoraires())) await setHoraires.mutateAsync({ agenceId: created.id, horaires: week });
        toast.show('Agence créée.', { tone: 'success' });
      }
      onClose();
    },
    failureMessage: (error) => agenceErrorMessage(error, AGENCE_MESSAGES.saveError),
    conflict,
  });

  return (
    <FormDialog
      title={editing ? "Modifier l'agence" : 'Ajouter une agence'}
      onClose={onClose}
      className="dialog--wide"
      onSubmit={(event) => void form.submit(event)}
      failure={form.failure}
      notice={conflict.notice}
      busy={busy}
      canSubmit={!(editing && !week)}
    >
      <TextField label="Nom" required value={values.nom} onChange={set('nom')} error={form.errors.nom} />
      <TextField label="Adresse" required value={values.adresse} onChange={set('adresse')} error={form.errors.adresse} />
      <div className="form-row">
        <TextField label="Code postal" required value={values.cp_postal} onChange={set('cp_postal')} error={form.errors.cp_postal} inputMode="numeric" />
        <TextField label="Ville" required value={values.ville} onChange={set('ville')} error={form.errors.ville} />
      </div>
      <TextField label="Téléphone" required type="tel" value={values.telephone} onChange={set('telephone')} error={form.errors.telephone} />
      {week ? (
        <HorairesFieldset week={week} onChange={setWeek} disabled={busy} errors={form.errors} />
      ) : horairesQuery.isError ? (
        <Banner tone="error">{AGENCE_MESSAGES.horairesLoadError}</Banner>
      ) : (
        <p className="muted" role="status">
          Chargement…
        </p>
      )}
    </FormDialog>
  );
}
