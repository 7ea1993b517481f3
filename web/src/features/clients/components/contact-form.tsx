import { interlocuteurBodySchema, type Interlocuteur, type SiteWithInstallations } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { FormActions } from '../../../components/ui/form-dialog';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm } from '../../../lib/form-errors';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { CLIENT_MESSAGES } from '../api/client-messages';
import { useCreateInterlocuteur } from '../api/create-interlocuteur';
import { clientInterlocuteursQuery } from '../api/get-client-interlocuteurs';
import { useUpdateInterlocuteur } from '../api/update-interlocuteur';

function idsAt(contact: Interlocuteur | null, niveau: 'site' | 'installation'): Set<string> {
  return new Set((contact?.affectations ?? []).filter((a) => a.niveau === niveau).map((a) => a.niveau_id));
}

const formValues = (contact: Interlocuteur | null) => ({
  prenom: contact?.prenom ?? '',
  nom: contact?.nom ?? '',
  fonction: contact?.fonction ?? '',
  telephone: contact?.telephone ?? '',
  email: contact?.email ?? '',
});

/**
 * Add or edit a contact (§5: prénom and nom required) and choose the sites
 * and installations it answers for; what is ticked replaces the previous set.
 */
export function ContactForm({
  clientId,
  contact,
  sites,
  onDone,
}: {
  clientId: string;
  contact: Interlocuteur | null;
  sites: readonly SiteWithInstallations[];
  onDone: () => void;
}) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(formValues(contact));
  // The version the values were loaded at: the save is refused (409) if the contact changed since.
  const [version, setVersion] = useState(contact?.version);
  const [siteIds, setSiteIds] = useState(() => idsAt(contact, 'site'));
  const [installationIds, setInstallationIds] = useState(() => idsAt(contact, 'installation'));
  const create = useCreateInterlocuteur();
  const update = useUpdateInterlocuteur();
  const busy = create.isPending || update.isPending;
  const conflict = useEditConflict(
    async () =>
      contact ? ((await queryClient.fetchQuery({ ...clientInterlocuteursQuery(clientId), staleTime: 0 })).find((candidate) => candidate.id === contact.id) ?? null) : null,
    (fresh) => {
      setValues(formValues(fresh));
      setSiteIds(idsAt(fresh, 'site'));
      setInstallationIds(idsAt(fresh, 'installation'));
      setVersion(fresh.version);
      form.clearErrors();
    },
  );

  const set = (key: keyof typeof values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));
  const toggle = (setter: typeof setSiteIds, id: string, on: boolean) =>
    setter((ids) => {
      const next = new Set(ids);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const form = useFormSubmit({
    check: () => {
      // Only ids still among the client's sites and installations are sent.
      const liveSites = sites.filter((s) => siteIds.has(s.id)).map((s) => s.id);
      const liveInstallations = sites.flatMap((s) => s.installations).filter((i) => installationIds.has(i.id)).map((i) => i.id);
      return checkForm(interlocuteurBodySchema, { ...values, client_id: clientId, affect_sites: liveSites, affect_installations: liveInstallations });
    },
    save: async (data) => {
      if (contact) await update.mutateAsync({ id: contact.id, body: { ...data, version } });
      else await create.mutateAsync(data);
      toast.show(contact ? 'Interlocuteur modifié.' : 'Interlocuteur ajouté.', { tone: 'success' });
      onDone();
    },
    failureMessage: (error) => errorMessage(error, CLIENT_MESSAGES.saveError),
    conflict,
  });

  return (
    <form className="stack" onSubmit={(event) => void form.submit(event)} noValidate aria-label={contact ? "Modifier l'interlocuteur" : 'Nouvel interlocuteur'}>
      <h3>{contact ? `Modifier ${contact.prenom} ${contact.nom}` : 'Nouvel interlocuteur'}</h3>
      <div className="form-row">
        <TextField label="Prénom" required value={values.prenom} onChange={set('prenom')} error={form.errors.prenom} />
        <TextField label="Nom" required value={values.nom} onChange={set('nom')} error={form.errors.nom} />
      </div>
      <TextField label="Fonction" value={values.fonction} onChange={set('fonction')} error={form.errors.fonction} />
      <div className="form-row">
        <TextField label="Téléphone" type="tel" value={values.telephone} onChange={set('telephone')} error={form.errors.telephone} />
        <TextField label="Email" type="email" value={values.email} onChange={set('email')} error={form.errors.email} />
      </div>
      <fieldset className="fieldset">
        <legend className="field__label">Affectations</legend>
        {sites.length === 0 ? <p className="muted">Ce client n'a pas encore de site.</p> : null}
        <ul className="affectations">
          {sites.map((site) => (
            <li key={site.id}>
              <label className="checkbox-field">
                <input type="checkbox" className="checkbox" checked={siteIds.has(site.id)} onChange={(e) => toggle(setSiteIds, site.id, e.target.checked)} />
                <span className="checkbox-field__label">Site : {site.nom}</span>
              </label>
              {site.installations.length > 0 ? (
                <ul className="affectations__installations">
                  {site.installations.map((installation) => (
                    <li key={installation.id}>
                      <label className="checkbox-field">
                        <input
                          type="checkbox"
                          className="checkbox"
                          checked={installationIds.has(installation.id)}
                          onChange={(e) => toggle(setInstallationIds, installation.id, e.target.checked)}
                        />
                        <span className="checkbox-field__label">Installation : {installation.nom}</span>
                      </label>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      </fieldset>
      {form.failure ? <Banner tone="error">{form.failure}</Banner> : null}
      {conflict.notice}
      <FormActions busy={busy} onCancel={onDone} />
    </form>
  );
}
