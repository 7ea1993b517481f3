import { metierBodySchema, type Metier } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm, remainingErrors, type FieldErrors } from '../../../lib/form-errors';
import { useCreateMetier } from '../api/create-metier';
import { metiersQuery } from '../api/get-metiers';
import { METIER_MESSAGES } from '../api/metier-messages';
import { useUpdateMetier } from '../api/update-metier';

interface MetierFormValues {
  nom: string;
  ordre: string;
  delai_inter: string;
  HO_stats: boolean;
}

const formValues = (metier: Metier | null): MetierFormValues => ({
  nom: metier?.nom ?? '',
  ordre: metier?.ordre === null || metier?.ordre === undefined ? '' : String(metier.ordre),
  delai_inter: metier?.delai_inter === null || metier?.delai_inter === undefined ? '' : String(metier.delai_inter),
  HO_stats: metier?.HO_stats === 1,
});

/**
 * Add or edit a trade (§5): nom required; ordre a whole number or empty
 * (null); delai_inter at least 0, floored, empty is null. The contracts schema
 * does the conversions, so the body is what the API stores.
 */
export function MetierFormDialog({ metier, onClose }: { metier: Metier | null; onClose: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<MetierFormValues>(formValues(metier));
  // The version the values were loaded at: the save is refused (409) if the trade changed since.
  const [version, setVersion] = useState(metier?.version);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateMetier();
  const update = useUpdateMetier();
  const busy = create.isPending || update.isPending;
  const conflict = useEditConflict(
    async () => (metier ? ((await queryClient.fetchQuery({ ...metiersQuery(), staleTime: 0 })).find((candidate) => candidate.id === metier.id) ?? null) : null),
    (fresh) => {
      setValues(formValues(fresh));
      setVersion(fresh.version);
      setErrors({});
    },
  );

  const checkValues = () => checkForm(metierBodySchema, { ...values, HO_stats: values.HO_stats ? 1 : 0 });
  // After a refused save, each message follows its field: it goes once the field is fixed.
  const shownErrors = remainingErrors(errors, checkValues());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    conflict.clear();
    const check = checkValues();
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors({});
    try {
      if (metier) await update.mutateAsync({ id: metier.id, body: { ...check.data, version } });
      else await create.mutateAsync(check.data);
      toast.show(metier ? 'Métier modifié.' : 'Métier ajouté.', { tone: 'success' });
      onClose();
    } catch (error) {
      if (!conflict.caught(error)) setFailure(errorMessage(error, METIER_MESSAGES.saveError));
    }
  };

  return (
    <Dialog open title={metier ? 'Modifier le métier' : 'Ajouter un métier'} onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <TextField label="Nom" required value={values.nom} onChange={(e) => setValues((v) => ({ ...v, nom: e.target.value }))} error={shownErrors.nom} />
        <div className="form-row">
          <TextField
            label="Ordre"
            type="number"
            step={1}
            inputMode="numeric"
            value={values.ordre}
            onChange={(e) => setValues((v) => ({ ...v, ordre: e.target.value }))}
            error={shownErrors.ordre}
          />
          <TextField
            label="Délai (h)"
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            hint="Délai d'intervention en heures ; vide si aucun."
            value={values.delai_inter}
            onChange={(e) => setValues((v) => ({ ...v, delai_inter: e.target.value }))}
            error={shownErrors.delai_inter}
          />
        </div>
        <CheckboxField
          label="Jours non ouvrés comptés dans les statistiques"
          hint="Coché : le délai court aussi les week-ends et jours fériés (HO_stats)."
          checked={values.HO_stats}
          onChange={(e) => setValues((v) => ({ ...v, HO_stats: e.target.checked }))}
        />
        {failure ? <Banner tone="error">{failure}</Banner> : null}
        {conflict.notice}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            Annuler
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy || undefined}>
            Enregistrer
          </button>
        </div>
      </form>
    </Dialog>
  );
}
