import { INSTALLATION_DELAI_MIN_HOURS, installationBodySchema, type Installation } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { FormDialog } from '../../../components/ui/form-dialog';
import { QueryOptions, SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm } from '../../../lib/form-errors';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useMetierList } from '../../metiers/api/get-metiers';
import { CLIENT_MESSAGES } from '../api/client-messages';
import { useCreateInstallation } from '../api/create-installation';
import { clientSitesQuery } from '../api/get-client-sites';
import { useUpdateInstallation } from '../api/update-installation';

const formValues = (installation: Installation | null) => ({
  nom: installation?.nom ?? '',
  id_metier: installation?.id_metier ?? '',
  description: installation?.description ?? '',
  delai: installation ? String(installation.delai) : '',
  astreinte: installation?.astreinte === 1,
});

/**
 * Add or edit an installation of a site (§5): nom, métier, description and
 * délai required; délai a whole number of hours, at least 1.
 */
export function InstallationFormDialog({
  clientId,
  siteId,
  installation,
  onClose,
}: {
  clientId: string;
  siteId: string;
  installation: Installation | null;
  onClose: () => void;
}) {
  const toast = useToast();
  const metiers = useMetierList();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(formValues(installation));
  // The version the values were loaded at: the save is refused (409) if the installation changed since.
  const [version, setVersion] = useState(installation?.version);
  const create = useCreateInstallation(clientId);
  const update = useUpdateInstallation(clientId);
  const busy = create.isPending || update.isPending;
  const conflict = useEditConflict(
    async () => {
      if (!installation) return null;
      const sites = await queryClient.fetchQuery({ ...clientSitesQuery(clientId), staleTime: 0 });
      return sites.flatMap((site) => site.installations).find((candidate) => candidate.id === installation.id) ?? null;
    },
    (fresh) => {
      setValues(formValues(fresh));
      setVersion(fresh.version);
      form.clearErrors();
    },
  );

  const form = useFormSubmit({
    check: () => checkForm(installationBodySchema, { ...values, site_id: siteId }),
    save: async (data) => {
      if (installation) await update.mutateAsync({ id: installation.id, body: { ...data, version } });
      else await create.mutateAsync(data);
      toast.show(installation ? 'Installation modifiée.' : 'Installation créée.', { tone: 'success' });
      onClose();
    },
    failureMessage: (error) => errorMessage(error, CLIENT_MESSAGES.saveError),
    conflict,
  });

  return (
    <FormDialog
      title={installation ? "Modifier l'installation" : 'Ajouter une installation'}
      onClose={onClose}
      onSubmit={(event) => void form.submit(event)}
      failure={form.failure}
      notice={conflict.notice}
      busy={busy}
    >
      <TextField label="Nom" required value={values.nom} onChange={(e) => setValues((v) => ({ ...v, nom: e.target.value }))} error={form.errors.nom} />
      <SelectField label="Métier" required value={values.id_metier} onChange={(e) => setValues((v) => ({ ...v, id_metier: e.target.value }))} error={form.errors.id_metier}>
        <QueryOptions query={metiers} placeholder="Choisir un métier" />
      </SelectField>
      <TextareaField
        label="Description"
        required
        value={values.description}
        onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
        error={form.errors.description}
      />
      <TextField
        label="Délai d'intervention (h)"
        required
        type="number"
        min={INSTALLATION_DELAI_MIN_HOURS}
        step={1}
        inputMode="numeric"
        value={values.delai}
        onChange={(e) => setValues((v) => ({ ...v, delai: e.target.value }))}
        error={form.errors.delai}
        hint={values.delai ? `Affiché : « Dépannage sous ${values.delai}h »` : undefined}
      />
      <CheckboxField label="Astreinte" checked={values.astreinte} onChange={(e) => setValues((v) => ({ ...v, astreinte: e.target.checked }))} />
    </FormDialog>
  );
}
