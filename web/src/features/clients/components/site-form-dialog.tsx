import { MANAGEMENT_MESSAGES, type Site } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { FormDialog } from '../../../components/ui/form-dialog';
import { useToast } from '../../../components/ui/toast';
import { useCreateSite } from '../api/create-site';
import { clientSitesQuery } from '../api/get-client-sites';
import { useUpdateSite } from '../api/update-site';
import { useAddressForm } from './address-form';

/** Add or edit a site of `clientId`; every field is required: 'Tous les champs sont obligatoires !' (§5). */
export function SiteFormDialog({ clientId, site, onClose, onSaved }: { clientId: string; site: Site | null; onClose: () => void; onSaved?: (site: Site) => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const form = useAddressForm(site, async () =>
    site ? ((await queryClient.fetchQuery({ ...clientSitesQuery(clientId), staleTime: 0 })).find((candidate) => candidate.id === site.id) ?? null) : null,
  );
  const create = useCreateSite();
  const update = useUpdateSite();
  const busy = create.isPending || update.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.complete()) {
      form.setAlert(MANAGEMENT_MESSAGES.siteFieldsRequired);
      return;
    }
    const body = { ...form.body, client_id: clientId };
    await form.save(async () => {
      const saved = site ? await update.mutateAsync({ id: site.id, body: { ...body, version: form.version } }) : await create.mutateAsync(body);
      toast.show(site ? 'Site modifié.' : 'Site créé.', { tone: 'success' });
      onSaved?.(saved);
      onClose();
    });
  };

  return (
    <FormDialog title={site ? 'Modifier le site' : 'Ajouter un site'} onClose={onClose} onSubmit={(event) => void submit(event)} {...form.dialog} busy={busy}>
      {form.fields}
    </FormDialog>
  );
}
