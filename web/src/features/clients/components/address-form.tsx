import { useState } from 'react';
import { useEditConflict } from '../../../components/ui/conflict-notice';
import { TextField } from '../../../components/ui/text-field';
import { errorMessage } from '../../../lib/api-client';
import { CLIENT_MESSAGES } from '../api/client-messages';

type AddressField = 'nom' | 'adresse' | 'code_postal' | 'ville';
const ADDRESS_FIELDS: readonly AddressField[] = ['nom', 'adresse', 'code_postal', 'ville'];

/** A fiche with a name and a postal address: a client or a site. */
interface AddressFiche {
  nom: string;
  adresse: string;
  code_postal: string;
  ville: string;
  version?: number | undefined;
}

const addressValues = (fiche: AddressFiche | null): Record<AddressField, string> => ({
  nom: fiche?.nom ?? '',
  adresse: fiche?.adresse ?? '',
  code_postal: fiche?.code_postal ?? '',
  ville: fiche?.ville ?? '',
});

/**
 * The form of a client or a site (§5): nom, adresse, code postal and ville,
 * all required (the empty ones marked), saved with the version they were
 * loaded at. `load` fetches the fiche as it is now after an edit conflict;
 * `reloaded` takes what else the form holds from it.
 */
export function useAddressForm<Fiche extends AddressFiche>(fiche: Fiche | null, load: () => Promise<Fiche | null | undefined>, reloaded?: (fresh: Fiche) => void) {
  const [values, setValues] = useState(addressValues(fiche));
  // The version the values were loaded at: the save is refused (409) if the fiche changed since.
  const [version, setVersion] = useState(fiche?.version);
  const [missing, setMissing] = useState<ReadonlySet<AddressField>>(new Set());
  const [alert, setAlert] = useState<string | null>(null);
  const conflict = useEditConflict(load, (fresh) => {
    setValues(addressValues(fresh));
    reloaded?.(fresh);
    setVersion(fresh.version);
    setMissing(new Set());
  });

  /** Forgets the last failure and marks the empty fields; true when none is. */
  const complete = () => {
    setAlert(null);
    conflict.clear();
    const empty = new Set(ADDRESS_FIELDS.filter((field) => !values[field].trim()));
    setMissing(empty);
    return empty.size === 0;
  };

  /** Runs the save; a conflict goes to the notice, any other failure to the alert. */
  const save = async (send: () => Promise<void>) => {
    try {
      await send();
    } catch (error) {
      if (!conflict.caught(error)) setAlert(errorMessage(error, CLIENT_MESSAGES.saveError));
    }
  };

  const field = (key: AddressField, label: string) => (
    <TextField
      label={label}
      required
      value={values[key]}
      invalid={missing.has(key)}
      inputMode={key === 'code_postal' ? 'numeric' : undefined}
      onChange={(event) => setValues((v) => ({ ...v, [key]: event.target.value }))}
    />
  );

  return {
    complete,
    save,
    setAlert,
    /** The values, trimmed, and the version they were loaded at. */
    body: { nom: values.nom.trim(), adresse: values.adresse.trim(), ville: values.ville.trim(), code_postal: values.code_postal.trim() },
    version,
    dialog: { failure: alert, notice: conflict.notice },
    fields: (
      <>
        {field('nom', 'Nom')}
        {field('adresse', 'Adresse')}
        <div className="form-row">
          {field('code_postal', 'Code postal')}
          {field('ville', 'Ville')}
        </div>
      </>
    ),
  };
}
