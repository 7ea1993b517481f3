import { manualTicketCreateBodySchema, TICKET_AUTOCOMPLETE_CLOSE_DELAY_MS, TICKET_LABELS, TICKET_MESSAGES } from '@fsm/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { Autocomplete } from '../../../components/ui/autocomplete';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-dialog';
import { isImageFile, PhotoField } from '../../../components/ui/photo-field';
import { NamedOptions, SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { NetworkError, errorMessage } from '../../../lib/api-client';
import { parisDateInput, parisTimeInput } from '../../../lib/format';
import { useClientSites } from '../../clients/api/get-client-sites';
import { useClients } from '../../../lib/lookups/get-clients';
import { mergeInterlocuteurs, useInterlocuteurs } from '../../../lib/lookups/get-interlocuteurs';
import { useUtilisateurs } from '../../../lib/lookups/get-utilisateurs';
import { personName, type ClientOption } from '../../../lib/lookups/lookup-types';
import { useCreateManualTicket } from '../api/create-manual-ticket';
import { ContactFields, EMPTY_CONTACT, type Contact } from './contact-fields';
import { SiteInstallationFields } from './site-installation-fields';

export interface AddTicketDialogProps {
  open: boolean;
  onClose: () => void;
  /** Called with the text of the success banner. */
  onCreated: (message: string) => void;
}

/** '+ Ajouter un ticket' (spec §2 "Modal 'Ajouter un ticket'", §5, §8). */
export function AddTicketDialog({ open, onClose, onCreated }: AddTicketDialogProps) {
  return (
    <Dialog open={open} title={TICKET_LABELS.addTicketModalTitle} onClose={onClose} className="dialog--wide">
      <AddTicketForm onClose={onClose} onCreated={onCreated} />
    </Dialog>
  );
}

/** Stable empty lists while the look-ups load, so the memos below keep their values. */
const NO_CLIENTS: readonly ClientOption[] = [];

function AddTicketForm({ onClose, onCreated }: Omit<AddTicketDialogProps, 'open'>) {
  const [clientId, setClientId] = useState<string | null>(null);
  const [siteId, setSiteId] = useState('');
  const [installationId, setInstallationId] = useState('');
  const [contactId, setContactId] = useState('');
  const [contact, setContact] = useState<Contact>(EMPTY_CONTACT);
  const [probleme, setProbleme] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [date, setDate] = useState(() => parisDateInput());
  const [time, setTime] = useState(() => parisTimeInput());
  const [technicienId, setTechnicienId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [showMissing, setShowMissing] = useState(false);

  const clientsQuery = useClients();
  const clients = clientsQuery.data ?? NO_CLIENTS;
  const sites = useClientSites(clientId).data ?? [];
  const installations = sites.find((s) => s.id === siteId)?.installations ?? [];
  const siteContacts = useInterlocuteurs('site-only', siteId || null);
  const installationContacts = useInterlocuteurs('installation', installationId || null);
  const contacts = useMemo(
    () => mergeInterlocuteurs(siteContacts.data, installationContacts.data),
    [siteContacts.data, installationContacts.data],
  );
  const technicians = useUtilisateurs().data ?? [];
  const clientItems = useMemo(() => clients.map((c) => ({ id: c.id, label: c.nom, detail: c.ville })), [clients]);
  const mutation = useCreateManualTicket();

  const pickClient = (id: string | null) => {
    setClientId(id);
    setSiteId('');
    setInstallationId('');
    setContactId('');
  };
  const pickSite = (id: string) => {
    setSiteId(id);
    setInstallationId('');
    setContactId('');
  };
  const pickContact = (id: string) => {
    setContactId(id);
    const chosen = contacts.find((c) => c.id === id);
    if (!chosen) return;
    setContact({ nom: chosen.nom, prenom: chosen.prenom, email: chosen.email ?? '', telephone: chosen.telephone ?? '' });
  };
  const pickPhoto = (file: File | null) => {
    if (file && !isImageFile(file)) {
      setPhoto(null);
      setPhotoError(TICKET_MESSAGES.notAnImage);
      return;
    }
    setPhotoError(null);
    setPhoto(file);
  };

  const missing = (value: string) => showMissing && value.trim() === '';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const body = {
      installation_id: installationId,
      ...contact,
      probleme,
      date_enregistrement: date,
      heure_enregistrement: time,
      id_technicien: technicienId,
    };
    const parsed = manualTicketCreateBodySchema.safeParse(body);
    if (!parsed.success || !date || !time) {
      setShowMissing(true);
      setProblem(parsed.success ? TICKET_MESSAGES.requiredFields : (parsed.error.issues[0]?.message ?? TICKET_MESSAGES.requiredFields));
      return;
    }
    setProblem(null);
    mutation.mutate(
      { ...body, photo },
      {
        onSuccess: (created) => {
          onCreated(created.message ?? TICKET_MESSAGES.manualSuccess);
          onClose();
        },
      },
    );
  };

  const serverError = mutation.isError
    ? mutation.error instanceof NetworkError
      ? TICKET_MESSAGES.manualNetworkError
      : errorMessage(mutation.error, TICKET_MESSAGES.manualSaveError)
    : null;

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {problem ? <Banner tone="error">{problem}</Banner> : null}
      {serverError ? <Banner tone="error">{serverError}</Banner> : null}

      <fieldset className="form-section">
        <legend>Installation concernée</legend>
        <div className="form-grid">
          <Autocomplete
            label="Client"
            placeholder="Rechercher un client"
            required
            items={clientItems}
            loading={clientsQuery.isPending}
            selectedId={clientId}
            onSelect={(item) => pickClient(item?.id ?? null)}
            emptyText={TICKET_LABELS.noClientFound}
            closeDelayMs={TICKET_AUTOCOMPLETE_CLOSE_DELAY_MS}
            invalid={showMissing && !clientId}
          />
          <SiteInstallationFields
            clientChosen={clientId !== null}
            sites={sites}
            siteId={siteId}
            onSite={pickSite}
            installations={installations}
            installationId={installationId}
            onInstallation={setInstallationId}
            showMissing={showMissing}
          />
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>Demandeur</legend>
        <SelectField
          label="Choisir un interlocuteur"
          value={contactId}
          disabled={!siteId || contacts.length === 0}
          onChange={(e) => pickContact(e.target.value)}
          hint={siteId && contacts.length === 0 && !siteContacts.isPending ? 'Aucun interlocuteur pour ce site.' : undefined}
        >
          <NamedOptions items={contacts} placeholder="—" nameOf={(c) => (c.email ? `${personName(c)} · ${c.email}` : personName(c))} />
        </SelectField>
        <div className="form-grid form-grid--pair">
          <ContactFields contact={contact} onChange={(key, value) => setContact((c) => ({ ...c, [key]: value }))} invalid={missing} />
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>Demande</legend>
        <TextareaField
          label="Problème constaté"
          required
          value={probleme}
          onChange={(e) => setProbleme(e.target.value)}
          invalid={missing(probleme)}
        />
        <PhotoField file={photo} onChange={pickPhoto} error={photoError} hint="Facultative" />
        <div className="form-grid">
          <TextField label="Date d’enregistrement" type="date" required value={date} onChange={(e) => setDate(e.target.value)} invalid={missing(date)} />
          <TextField label="Heure d’enregistrement" type="time" required value={time} onChange={(e) => setTime(e.target.value)} invalid={missing(time)} />
          <SelectField label="Technicien (facultatif)" value={technicienId} onChange={(e) => setTechnicienId(e.target.value)}>
            <NamedOptions items={technicians} placeholder="Aucun pour l’instant" nameOf={personName} />
          </SelectField>
        </div>
      </fieldset>

      <FormActions busy={mutation.isPending} onCancel={onClose} cancelWhileBusy submitLabel="Enregistrer le ticket" busyLabel="Enregistrement…" />
    </form>
  );
}
