import { TICKET_MESSAGES, type Ticket } from '@fsm/contracts';
import { useState, type FormEvent } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-dialog';
import { QueryOptions, SelectField } from '../../../components/ui/select-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUtilisateurs } from '../../../lib/lookups/get-utilisateurs';
import { personName } from '../../../lib/lookups/lookup-types';
import { useTakeInCharge } from '../api/take-in-charge';

/** 'Prendre en charge' (spec §4): confirm needs a chosen technician. */
export function TakeInChargeDialog({ ticket, open, onClose }: { ticket: Ticket; open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title="Prendre en charge" onClose={onClose}>
      <TakeInChargeForm ticket={ticket} onClose={onClose} />
    </Dialog>
  );
}

function TakeInChargeForm({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const technicians = useUtilisateurs();
  const me = useCurrentUser();
  const [picked, setTechnicienId] = useState<string | null>(null);
  // A technician on site mostly takes the ticket for themself: they are chosen until someone else is.
  const myId = String(me.id);
  const technicienId = picked ?? (technicians.data?.some((t) => t.id === myId) ? myId : '');
  const mutation = useTakeInCharge();
  const toast = useToast();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!technicienId || mutation.isPending) return;
    mutation.mutate(
      { ticketId: ticket.id, technicienId },
      {
        onSuccess: () => {
          const chosen = technicians.data?.find((t) => t.id === technicienId);
          toast.show(`Ticket ${ticket.num_chrono} pris en charge${chosen ? ` par ${personName(chosen)}` : ''}.`, { tone: 'success' });
          onClose();
        },
      },
    );
  };

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p className="muted">Ticket {ticket.num_chrono}</p>
      {mutation.isError ? <Banner tone="error">{errorMessage(mutation.error, TICKET_MESSAGES.serverError)}</Banner> : null}
      <SelectField label="Technicien" required value={technicienId} onChange={(e) => setTechnicienId(e.target.value)}>
        <QueryOptions query={technicians} placeholder="Choisir un technicien" nameOf={personName} />
      </SelectField>
      <FormActions busy={mutation.isPending} onCancel={onClose} cancelWhileBusy submitLabel="Confirmer" canSubmit={technicienId !== ''} />
    </form>
  );
}
