import { MANAGEMENT_MESSAGES, type Client } from '@fsm/contracts';
import { useState, type FormEvent } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { FormDialog } from '../../../components/ui/form-dialog';
import { QueryOptions, SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAgences } from '../../agences/api/get-agences';
import { CLIENT_MESSAGES } from '../api/client-messages';
import { useCreateClient, type ClientBodyOut } from '../api/create-client';
import { getClient } from '../api/get-client';
import { useUpdateClient } from '../api/update-client';

type Field = 'nom' | 'adresse' | 'code_postal' | 'ville';
const FIELDS: readonly Field[] = ['nom', 'adresse', 'code_postal', 'ville'];

const formValues = (client: Client | null): Record<Field, string> => ({
  nom: client?.nom ?? '',
  adresse: client?.adresse ?? '',
  code_postal: client?.code_postal ?? '',
  ville: client?.ville ?? '',
});

/**
 * Add or edit a client (§5): nom, adresse, ville and code postal required —
 * a silent return, the empty fields only marked — then an agency, 'Veuillez
 * sélectionner une agence.' admin_plus picks it; everybody else's clients
 * go to their own agency.
 */
export function ClientFormDialog({ client, onClose, onSaved }: { client: Client | null; onClose: () => void; onSaved?: (client: Client) => void }) {
  const me = useCurrentUser();
  const toast = useToast();
  const picksAgence = me.role === 'admin_plus';
  const agences = useAgences(picksAgence);
  const [values, setValues] = useState<Record<Field, string>>(formValues(client));
  const [agenceId, setAgenceId] = useState(client?.agence_id ?? '');
  // The version the values were loaded at: the save is refused (409) if the client changed since.
  const [version, setVersion] = useState(client?.version);
  const [missing, setMissing] = useState<ReadonlySet<Field>>(new Set());
  const [alert, setAlert] = useState<string | null>(null);
  const create = useCreateClient();
  const update = useUpdateClient();
  const busy = create.isPending || update.isPending;
  const conflict = useEditConflict(
    () => (client ? getClient(client.id) : Promise.resolve(null)),
    (fresh) => {
      setValues(formValues(fresh));
      setAgenceId(fresh.agence_id);
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
    if (empty.size > 0) return;
    const ownAgence = me.agence_id === null ? '' : String(me.agence_id);
    const agence = picksAgence ? agenceId : ownAgence;
    if (picksAgence && !agence) {
      setAlert(MANAGEMENT_MESSAGES.agenceRequired);
      return;
    }
    const body: ClientBodyOut = {
      nom: values.nom.trim(),
      adresse: values.adresse.trim(),
      ville: values.ville.trim(),
      code_postal: values.code_postal.trim(),
      ...(agence ? { agence_id: agence } : {}),
    };
    try {
      const saved = client ? await update.mutateAsync({ id: client.id, body: { ...body, version } }) : await create.mutateAsync(body);
      toast.show(client ? 'Client modifié.' : 'Client créé.', { tone: 'success' });
      onSaved?.(saved);
      onClose();
    } catch (error) {
      if (!conflict.caught(error)) setAlert(errorMessage(error, CLIENT_MESSAGES.saveError));
    }
  };

  const field = (key: Field, label: string, extra: { inputMode?: 'numeric' } = {}) => (
    <TextField
      label={label}
      required
      value={values[key]}
      invalid={missing.has(key)}
      onChange={(event) => setValues((v) => ({ ...v, [key]: event.target.value }))}
      {...extra}
    />
  );

  return (
    <FormDialog title={client ? 'Modifier le client' : 'Ajouter un client'} onClose={onClose} onSubmit={(event) => void submit(event)} failure={alert} notice={conflict.notice} busy={busy}>
      {field('nom', 'Nom')}
      {field('adresse', 'Adresse')}
      <div className="form-row">
        {field('code_postal', 'Code postal', { inputMode: 'numeric' })}
        {field('ville', 'Ville')}
      </div>
      {picksAgence ? (
        <SelectField label="Agence" required value={agenceId} onChange={(event) => setAgenceId(event.target.value)}>
          <QueryOptions query={agences} placeholder="Choisir une agence" />
        </SelectField>
      ) : null}
    </FormDialog>
  );
}
