import { MANAGEMENT_MESSAGES, type Site } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { FormDialog } from '../../../components/ui/form-dialog';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { CLIENT_MESSAGES } from '../api/client-messages';
import { useCreateSite } from '../api/create-site';
import { clientSitesQuery } from '../api/get-client-sites';
import { useUpdateSite } from '../api/update-site';

type Field = 'nom' | 'adresse' | 'code_postal' | 'ville';
const FIELDS: readonly Field[] = ['nom', 'adresse', 'code_postal', 'ville'];

const formValues = (site: Site | null): Record<Field, string> => ({
  nom: site?.nom ?? '',
  adresse: site?.adresse ?? '',
  code_postal: site?.code_postal ?? '',
  ville: site?.ville ?? '',
});

/** Add or edit a site of `clientId`; every field is required: 'Tous les champs sont obligatoires !' (§5). */
export function SiteFormDialog({ clientId, site, onClose, onSaved }: { clientId: string; site: Site | null; onClose: () => void; onSaved?: (site: Site) => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<Field, string>>(formValues(site));
  // The version the values were loaded at: the save is refused (409) if the site changed since.
  const [version, setVersion] = useState(site?.version);
  const [missing, setMissing] = useState<ReadonlySet<Field>>(new Set());
  const [alert, setAlert] = useState<string | null>(null);
  const create = useCreateSite();
  const update = useUpdateSite();
  const busy = create.isPending || update.isPending;
  const conflict = useEditConflict(
    async () => (site ? ((await queryClient.fetchQuery({ ...clientSitesQuery(clientId), staleTime: 0 })).find((candidate) => candidate.id === site.id) ?? null) : null),
    (fresh) => {
      setValues(formValues(fresh));
      setVersion(fresh.version);
      setMissing(new Set());
    },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    conflict.clear();
    const empty = new Set(FIELDS.filter((field) => !values[field].trim()));
    setMissing(empty);
    if (empty.size > 0) {
      setAlert(MANAGEMENT_MESSAGES.siteFieldsRequired);
      return;
    }
    const body = {
      nom: values.nom.trim(),
      adresse: values.adresse.trim(),
      ville: values.ville.trim(),
      code_postal: values.code_postal.trim(),
      client_id: clientId,
    };
    try {
      const saved = site ? await update.mutateAsync({ id: site.id, body: { ...body, version } }) : await create.mutateAsync(body);
      toast.show(site ? 'Site modifié.' : 'Site créé.', { tone: 'success' });
      onSaved?.(saved);
      onClose();
    } catch (error) {
      if (!conflict.caught(error)) setAlert(errorMessage(error, CLIENT_MESSAGES.saveError));
    }
  };

  const field = (key: Field, label: string) => (
    <TextField label={label} required value={values[key]} invalid={missing.has(key)} onChange={(event) => setValues((v) => ({ ...v, [key]: event.target.value }))} />
  );

  return (
    <FormDialog title={site ? 'Modifier le site' : 'Ajouter un site'} onClose={onClose} onSubmit={(event) => void submit(event)} failure={alert} notice={conflict.notice} busy={busy}>
      {field('nom', 'Nom')}
      {field('adresse', 'Adresse')}
      <div className="form-row">
        {field('code_postal', 'Code postal')}
        {field('ville', 'Ville')}
      </div>
    </FormDialog>
  );
}
