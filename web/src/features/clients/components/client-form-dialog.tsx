import { MANAGEMENT_MESSAGES, type Client } from '@fsm/contracts';
import { useState, type FormEvent } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { FormDialog } from '../../../components/ui/form-dialog';
import { QueryOptions, SelectField } from '../../../components/ui/select-field';
import { useToast } from '../../../components/ui/toast';
import { useAgences } from '../../agences/api/get-agences';
import { useCreateClient, type ClientBodyOut } from '../api/create-client';
import { getClient } from '../api/get-client';
import { useUpdateClient } from '../api/update-client';
import { useAddressForm } from './address-form';

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
  const [agenceId, setAgenceId] = useState(client?.agence_id ?? '');
  const form = useAddressForm(
    client,
    () => (client ? getClient(client.id) : Promise.resolve(null)),
    (fresh) => setAgenceId(fresh.agence_id),
  );
  const create = useCreateClient();
  const update = useUpdateClient();
  const busy = create.isPending || update.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.complete()) return;
    const ownAgence = me.agence_id === null ? '' : String(me.agence_id);
    const agence = picksAgence ? agenceId : ownAgence;
    if (picksAgence && !agence) {
      form.setAlert(MANAGEMENT_MESSAGES.agenceRequired);
      return;
    }
    const body: ClientBodyOut = { ...form.body, ...(agence ? { agence_id: agence } : {}) };
    await form.save(async () => {
      const saved = client ? await update.mutateAsync({ id: client.id, body: { ...body, version: form.version } }) : await create.mutateAsync(body);
      toast.show(client ? 'Client modifié.' : 'Client créé.', { tone: 'success' });
      onSaved?.(saved);
      onClose();
    });
  };

  return (
    <FormDialog title={client ? 'Modifier le client' : 'Ajouter un client'} onClose={onClose} onSubmit={(event) => void submit(event)} {...form.dialog} busy={busy}>
      {form.fields}
      {picksAgence ? (
        <SelectField label="Agence" required value={agenceId} onChange={(event) => setAgenceId(event.target.value)}>
          <QueryOptions query={agences} placeholder="Choisir une agence" />
        </SelectField>
      ) : null}
    </FormDialog>
  );
}
