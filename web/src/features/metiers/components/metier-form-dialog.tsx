import { metierBodySchema, type Metier } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { FormDialog } from '../../../components/ui/form-dialog';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm } from '../../../lib/form-errors';
import { useFormSubmit } from '../../../lib/use-form-submit';
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
  const create = useCreateMetier();
  const update = useUpdateMetier();
  const busy = create.isPending || update.isPending;
  const conflict = useEditConflict(
    async () => (metier ? ((await queryClient.fetchQuery({ ...metiersQuery(), staleTime: 0 })).find((candidate) => candidate.id === metier.id) ?? null) : null),
    (fresh) => {
      setValues(formValues(fresh));
      setVersion(fresh.version);
      form.clearErrors();
    },
  );

  const form = useFormSubmit({
    check: () => checkForm(metierBodySchema, { ...values, HO_stats: values.HO_stats ? 1 : 0 }),
    save: async (data) => {
      if (metier) await update.mutateAsync({ id: metier.id, body: { ...data, version } });
      else await create.mutateAsync(data);
      toast.show(metier ? 'Métier modifié.' : 'Métier ajouté.', { tone: 'success' });
      onClose();
    },
    failureMessage: (error) => errorMessage(error, METIER_MESSAGES.saveError),
    conflict,
  });

  return (
    <FormDialog
      title={metier ? 'Modifier le métier' : 'Ajouter un métier'}
      onClose={onClose}
      onSubmit={(event) => void form.submit(event)}
      failure={form.failure}
      notice={conflict.notice}
      busy={busy}
    >
      <TextField label="Nom" required value={values.nom} onChange={(e) => setValues((v) => ({ ...v, nom: e.target.value }))} error={form.errors.nom} />
      <div className="form-row">
        <TextField
          label="Ordre"
          type="number"
          step={1}
          inputMode="numeric"
          value={values.ordre}
          onChange={(e) => setValues((v) => ({ ...v, ordre: e.target.value }))}
          error={form.errors.ordre}
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
          error={form.errors.delai_inter}
        />
      </div>
      <CheckboxField
        label="Jours non ouvrés comptés dans les statistiques"
        hint="Coché : le délai court aussi les week-ends et jours fériés (HO_stats)."
        checked={values.HO_stats}
        onChange={(e) => setValues((v) => ({ ...v, HO_stats: e.target.checked }))}
      />
    </FormDialog>
  );
}
