import { agenceBodySchema, defaultAgenceHoraires, type Agence, type AgenceHoraire } from '@fsm/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { checkForm, type FieldErrors } from '../../../lib/form-errors';
import { AGENCE_MESSAGES, agenceErrorMessage } from '../api/agence-errors';
import { useCreateAgence } from '../api/create-agence';
import { useAgenceHoraires } from '../api/get-agence-horaires';
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

function sameWeek(a: readonly AgenceHoraire[], b: readonly AgenceHoraire[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Add or edit an agency with its Monday–Friday hours. `agence` null means a new one. */
export function AgenceFormDialog({ agence, onClose }: { agence: Agence | null; onClose: () => void }) {
  const toast = useToast();
  const editing = agence !== null;
  const [values, setValues] = useState<AgenceFormValues>(
    agence ? { nom: agence.nom, adresse: agence.adresse, cp_postal: agence.cp_postal, ville: agence.ville, telephone: agence.telephone } : EMPTY,
  );
  const horairesQuery = useAgenceHoraires(agence?.id ?? null);
  const initialWeek = editing ? horairesQuery.data : defaultAgenceHoraires();
  const [week, setWeek] = useState<AgenceHoraire[] | null>(editing ? null : defaultAgenceHoraires());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateAgence();
  const update = useUpdateAgence();
  const setHoraires = useSetAgenceHoraires();
  const busy = create.isPending || update.isPending || setHoraires.isPending;

  useEffect(() => {
    if (editing && horairesQuery.data && week === null) setWeek(horairesQuery.data);
  }, [editing, horairesQuery.data, week]);

  const set = (key: keyof AgenceFormValues) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const check = checkForm(agenceBodySchema, values);
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors({});
    try {
      if (agence) {
        await update.mutateAsync({ id: agence.id, body: check.data });
        if (week && initialWeek && !sameWeek(week, initialWeek)) await setHoraires.mutateAsync({ agenceId: agence.id, horaires: week });
        toast.show('Agence modifiée.', { tone: 'success' });
      } else {
        const created = await create.mutateAsync(check.data);
        // A new agency opens with the default week: only a changed week needs the second call.
        if (week && !sameWeek(week, defaultAgenceHoraires())) await setHoraires.mutateAsync({ agenceId: created.id, horaires: week });
        toast.show('Agence créée.', { tone: 'success' });
      }
      onClose();
    } catch (error) {
      setFailure(agenceErrorMessage(error, AGENCE_MESSAGES.saveError));
    }
  };

  return (
    <Dialog open title={editing ? "Modifier l'agence" : 'Ajouter une agence'} onClose={onClose} className="dialog--wide">
      <form className="stack" onSubmit={submit} noValidate>
        <TextField label="Nom" required value={values.nom} onChange={set('nom')} error={errors.nom} />
        <TextField label="Adresse" required value={values.adresse} onChange={set('adresse')} error={errors.adresse} />
        <div className="form-row">
          <TextField label="Code postal" required value={values.cp_postal} onChange={set('cp_postal')} error={errors.cp_postal} inputMode="numeric" />
          <TextField label="Ville" required value={values.ville} onChange={set('ville')} error={errors.ville} />
        </div>
        <TextField label="Téléphone" required type="tel" value={values.telephone} onChange={set('telephone')} error={errors.telephone} />
        {week ? (
          <HorairesFieldset week={week} onChange={setWeek} disabled={busy} />
        ) : horairesQuery.isError ? (
          <Banner tone="error">{AGENCE_MESSAGES.horairesLoadError}</Banner>
        ) : (
          <p className="muted" role="status">
            Chargement…
          </p>
        )}
        {failure ? <Banner tone="error">{failure}</Banner> : null}
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
