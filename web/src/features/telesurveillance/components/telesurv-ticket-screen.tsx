import { TICKET_AUTOCOMPLETE_CLOSE_DELAY_MS, TICKET_LABELS, TICKET_MESSAGES, telesurveillanceTicketFormSchema } from '@fsm/contracts';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Autocomplete } from '../../../components/ui/autocomplete';
import { Banner } from '../../../components/ui/banner';
import { isImageFile, PhotoField } from '../../../components/ui/photo-field';
import { NamedOptions, QueryOptions, SelectField } from '../../../components/ui/select-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { NetworkError, errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useClientsByAgence } from '../../../lib/lookups/get-clients-by-agence';
import { useMostSpecificInterlocuteurs } from '../../../lib/lookups/get-interlocuteurs';
import { useSiteInstallations } from '../../../lib/lookups/get-site-installations';
import { useSitesByClient } from '../../../lib/lookups/get-sites-by-client';
import { useTelesurvAgences } from '../../../lib/lookups/get-telesurv-agences';
import { personName } from '../../../lib/lookups/lookup-types';
import { ContactFields, EMPTY_CONTACT, type Contact } from '../../tickets/components/contact-fields';
import { SiteInstallationFields } from '../../tickets/components/site-installation-fields';
import { useCreateTelesurvTicket } from '../api/create-telesurv-ticket';


/**
 * 'Nouveau ticket (Télésurveillance)' (spec §2, §4, §5): agency → client
 * (search) → site → installation, optional contact that fills only the fields
 * it has, problem and photo. A parent's change clears what hangs below it;
 * after a success the contact fields clear and the agency stays.
 */
export function TelesurvTicketScreen() {
  useDocumentTitle(TICKET_LABELS.telesurvTitle);
  const agences = useTelesurvAgences();
  const [agenceId, setAgenceId] = useState('');
  const [clientId, setClientId] = useState<string | null>(null);
  const [siteId, setSiteId] = useState('');
  const [installationId, setInstallationId] = useState('');
  const [interlocuteurId, setInterlocuteurId] = useState('');
  const [contact, setContact] = useState<Contact>(EMPTY_CONTACT);
  const [probleme, setProbleme] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [photoReset, setPhotoReset] = useState(0);
  const [success, setSuccess] = useState(false);

  const clients = useClientsByAgence(agenceId || null);
  const sites = useSitesByClient(clientId);
  const installations = useSiteInstallations(siteId || null);
  const interlocuteurs = useMostSpecificInterlocuteurs({
    installationId: installationId || null,
    siteId: siteId || null,
    clientId,
  });
  const mutation = useCreateTelesurvTicket();

  // One agency: nothing to choose.
  useEffect(() => {
    const only = agences.data?.length === 1 ? agences.data[0] : undefined;
    if (only && !agenceId) setAgenceId(only.id);
  }, [agences.data, agenceId]);

  const clientItems = useMemo(() => (clients.data ?? []).map((c) => ({ id: c.id, label: c.nom, detail: c.ville })), [clients.data]);

  const pickAgence = (id: string) => {
    setAgenceId(id);
    setClientId(null);
    setSiteId('');
    setInstallationId('');
    setInterlocuteurId('');
  };
  const pickClient = (id: string | null) => {
    setClientId(id);
    setSiteId('');
    setInstallationId('');
    setInterlocuteurId('');
  };
  const pickSite = (id: string) => {
    setSiteId(id);
    setInstallationId('');
    setInterlocuteurId('');
  };
  const pickInstallation = (id: string) => {
    setInstallationId(id);
    setInterlocuteurId('');
  };
  const pickInterlocuteur = (id: string) => {
    setInterlocuteurId(id);
    const chosen = interlocuteurs.data?.find((i) => i.id === id);
    if (!chosen) return;
    // Only the fields it has: an empty value never wipes what was typed.
    setContact((current) => ({
      nom: chosen.nom.trim() || current.nom,
      prenom: chosen.prenom.trim() || current.prenom,
      email: chosen.email ?? current.email,
      telephone: chosen.telephone ?? current.telephone,
    }));
  };
  const pickPhoto = (file: File | null) => {
    if (file && !isImageFile(file)) {
      setPhoto(null);
      setPhotoError(TICKET_MESSAGES.notAnImage);
      setPhotoReset((k) => k + 1);
      return;
    }
    setPhotoError(null);
    setPhoto(file);
  };

  const form = { agence_id: agenceId, client_id: clientId ?? '', site_id: siteId, installation_id: installationId, ...contact, probleme };
  const complete = telesurveillanceTicketFormSchema.safeParse(form).success;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!complete || mutation.isPending) return;
    setSuccess(false);
    mutation.mutate(
      { installation_id: installationId, ...contact, probleme, photo },
      {
        onSuccess: () => {
          setSuccess(true);
          // The operator usually files the next alarm for the same agency.
          setClientId(null);
          setSiteId('');
          setInstallationId('');
          setInterlocuteurId('');
          setContact(EMPTY_CONTACT);
          setProbleme('');
          setPhoto(null);
          setPhotoReset((k) => k + 1);
        },
      },
    );
  };

  const serverError = mutation.isError
    ? mutation.error instanceof NetworkError
      ? TICKET_MESSAGES.telesurvNetworkError
      : errorMessage(mutation.error, TICKET_MESSAGES.telesurvCreateError)
    : null;
  const setField = (key: keyof Contact, value: string) => {
    setSuccess(false);
    setContact((c) => ({ ...c, [key]: value }));
  };

  return (
    <section className="stack telesurv" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">{TICKET_LABELS.telesurvTitle}</h1>
      </div>
      <form className="card stack telesurv__form" onSubmit={onSubmit} noValidate>
        {success ? <Banner tone="success">{TICKET_MESSAGES.telesurvSuccess}</Banner> : null}
        {serverError ? <Banner tone="error">{serverError}</Banner> : null}

        <fieldset className="form-section">
          <legend>Installation concernée</legend>
          <div className="form-grid form-grid--pair">
            <SelectField label="Agence" required value={agenceId} onChange={(e) => pickAgence(e.target.value)}>
              <QueryOptions query={agences} placeholder="Choisir une agence" />
            </SelectField>
            <Autocomplete
              key={agenceId}
              label="Client"
              placeholder={agenceId ? 'Rechercher un client' : 'Choisissez d’abord une agence'}
              required
              disabled={!agenceId}
              items={clientItems}
              loading={clients.isPending && Boolean(agenceId)}
              selectedId={clientId}
              onSelect={(item) => pickClient(item?.id ?? null)}
              emptyText={TICKET_LABELS.noClientFound}
              closeDelayMs={TICKET_AUTOCOMPLETE_CLOSE_DELAY_MS}
            />
            <SiteInstallationFields
              clientChosen={Boolean(clientId)}
              sites={sites.data ?? []}
              siteId={siteId}
              onSite={pickSite}
              installations={installations.data ?? []}
              installationId={installationId}
              onInstallation={pickInstallation}
            />
          </div>
        </fieldset>

        <fieldset className="form-section">
          <legend>Contact sur place</legend>
          <SelectField
            label="Interlocuteur (facultatif)"
            value={interlocuteurId}
            disabled={!clientId || (interlocuteurs.data ?? []).length === 0}
            onChange={(e) => pickInterlocuteur(e.target.value)}
          >
            <NamedOptions items={interlocuteurs.data ?? []} placeholder="—" nameOf={personName} />
          </SelectField>
          <div className="form-grid">
            <ContactFields contact={contact} onChange={setField} autoFill={false} />
          </div>
        </fieldset>

        <fieldset className="form-section">
          <legend>Alarme</legend>
          <TextareaField label="Problème constaté" required value={probleme} onChange={(e) => setProbleme(e.target.value)} />
          <PhotoField file={photo} onChange={pickPhoto} error={photoError} resetKey={photoReset} hint="Facultative" />
        </fieldset>

        <div className="form-actions">
          <button
            type="submit"
            className="btn btn--primary btn--large"
            disabled={!complete || mutation.isPending}
            aria-busy={mutation.isPending || undefined}
          >
            {mutation.isPending ? TICKET_LABELS.sending : TICKET_LABELS.telesurvSubmit}
          </button>
        </div>
      </form>
    </section>
  );
}
