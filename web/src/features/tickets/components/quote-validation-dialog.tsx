import { TICKET_MESSAGES } from '@fsm/contracts';
import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-dialog';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { parisDateInput } from '../../../lib/format';
import { useValidateQuote } from '../api/validate-quote';

export interface QuoteTicket {
  id: string;
  num_chrono: string;
}

/** 'Valider le devis' (spec §2 modals, §5): the quote number is mandatory, the date defaults to today. */
export function QuoteValidationDialog({ ticket, onClose }: { ticket: QuoteTicket | null; onClose: () => void }) {
  return (
    <Dialog open={ticket !== null} title="Valider le devis" onClose={onClose}>
      {ticket ? <QuoteValidationForm ticket={ticket} onClose={onClose} /> : null}
    </Dialog>
  );
}

function QuoteValidationForm({ ticket, onClose }: { ticket: QuoteTicket; onClose: () => void }) {
  const [numero, setNumero] = useState('');
  const [date, setDate] = useState(() => parisDateInput());
  const [missing, setMissing] = useState(false);
  const mutation = useValidateQuote();
  const toast = useToast();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    if (!numero.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    mutation.mutate(
      { ticketId: ticket.id, numero_devis: numero, date_enregistrement_devis: date },
      {
        onSuccess: () => {
          toast.show(`Devis validé pour le ticket ${ticket.num_chrono}.`, { tone: 'success' });
          onClose();
        },
      },
    );
  };

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p className="muted">Ticket {ticket.num_chrono}</p>
      {mutation.isError ? <Banner tone="error">{errorMessage(mutation.error, TICKET_MESSAGES.quoteValidationError)}</Banner> : null}
      <TextField
        label="Numéro de devis"
        required
        value={numero}
        onChange={(e) => setNumero(e.target.value)}
        error={missing ? TICKET_MESSAGES.numeroDevisRequired : null}
        autoComplete="off"
      />
      <TextField label="Date d’enregistrement du devis" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      <FormActions busy={mutation.isPending} onCancel={onClose} cancelWhileBusy submitLabel="Valider le devis" busyLabel="Validation…" />
    </form>
  );
}
