import { TextField } from '../../../components/ui/text-field';

/** Who asked for the ticket, as typed or filled from a known contact. */
export interface Contact {
  nom: string;
  prenom: string;
  email: string;
  telephone: string;
}

export const EMPTY_CONTACT: Contact = { nom: '', prenom: '', email: '', telephone: '' };

const CONTACT_FIELDS: readonly { key: keyof Contact; label: string; type?: 'email' | 'tel'; autoComplete: string }[] = [
  { key: 'nom', label: 'Nom', autoComplete: 'family-name' },
  { key: 'prenom', label: 'Prénom', autoComplete: 'given-name' },
  { key: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { key: 'telephone', label: 'Téléphone', type: 'tel', autoComplete: 'tel' },
];

/**
 * The four required contact fields of a ticket form. `autoFill` false turns the
 * browser's autofill off (an operator types somebody else's details).
 */
export function ContactFields({
  contact,
  onChange,
  invalid,
  autoFill = true,
}: {
  contact: Contact;
  onChange: (key: keyof Contact, value: string) => void;
  /** Marks a field left empty, once the form was sent incomplete. */
  invalid?: (value: string) => boolean;
  autoFill?: boolean;
}) {
  return CONTACT_FIELDS.map(({ key, label, type, autoComplete }) => (
    <TextField
      key={key}
      label={label}
      type={type}
      required
      autoComplete={autoFill ? autoComplete : 'off'}
      value={contact[key]}
      onChange={(event) => onChange(key, event.target.value)}
      invalid={invalid?.(contact[key])}
    />
  ));
}
