import { INSTALLATION_DELAI_MIN_HOURS, installationBodySchema, type Installation } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { Dialog } from '../../../components/ui/dialog';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm, remainingErrors, type FieldErrors } from '../../../lib/form-errors';
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
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
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
      setErrors({});
    },
  );

  const checkValues = () => checkForm(installationBodySchema, { ...values, site_id: siteId });
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
      if (installation) await update.mutateAsync({ id: installation.id, body: { ...check.data, version } });
      else await create.mutateAsync(check.data);
      toast.show(installation ? 'Installation modifiée.' : 'Installation créée.', { tone: 'success' });
      onClose();
    } catch (error) {
      if (!conflict.caught(error)) setFailure(errorMessage(error, CLIENT_MESSAGES.saveError));
    }
  };

  return (
    <Dialog open title={installation ? "Modifier l'installation" : 'Ajouter une installation'} onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <TextField label="Nom" required value={values.nom} onChange={(e) => setValues((v) => ({ ...v, nom: e.target.value }))} error={shownErrors.nom} />
        <SelectField label="Métier" required value={values.id_metier} onChange={(e) => setValues((v) => ({ ...v, id_metier: e.target.value }))} error={shownErrors.id_metier}>
          <option value="">{metiers.isPending ? 'Chargement…' : 'Choisir un métier'}</option>
          {(metiers.data ?? []).map((metier) => (
            <option key={metier.id} value={metier.id}>
              {metier.nom}
            </option>
          ))}
        </SelectField>
        <TextareaField
          label="Description"
          required
          value={values.description}
          onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
          error={shownErrors.description}
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
          error={shownErrors.delai}
          hint={values.delai ? `Affiché : « Dépannage sous ${values.delai}h »` : undefined}
        />
        <CheckboxField label="Astreinte" checked={values.astreinte} onChange={(e) => setValues((v) => ({ ...v, astreinte: e.target.checked }))} />
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
