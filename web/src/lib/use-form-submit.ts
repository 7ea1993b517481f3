import { useState, type FormEvent } from 'react';
import { remainingErrors, type FieldErrors, type FormCheck } from './form-errors';

/** What a form needs of useEditConflict: forget the last conflict, and recognise a new one. */
interface ConflictCatcher {
  clear: () => void;
  caught: (error: unknown) => boolean;
}

export interface FormSubmitOptions<Data> {
  /** The form's values through its contracts schema (checkForm); re-run on each render. */
  check: () => FormCheck<Data>;
  /** Sends the checked values; throws what the API answered. */
  save: (data: Data) => Promise<void>;
  /** The French text of a failed save. */
  failureMessage: (error: unknown) => string;
  /** An edit form's conflict: shown by its notice rather than as a failure. */
  conflict?: ConflictCatcher;
}

/**
 * The submit every form shares: check the values, show each message by its
 * field (gone once the field is fixed), save, and show why a save failed.
 * `submit` takes the form's event, or nothing (a row saved on Enter).
 */
export function useFormSubmit<Data>({ check, save, failureMessage, conflict }: FormSubmitOptions<Data>) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setFailure(null);
    conflict?.clear();
    const checked = check();
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      await save(checked.data);
    } catch (error) {
      if (!conflict?.caught(error)) setFailure(failureMessage(error));
    }
  };

  return {
    submit,
    errors: remainingErrors(errors, check()),
    failure,
    /** The values were replaced (a reload after a conflict): the old messages no longer apply. */
    clearErrors: () => setErrors({}),
  };
}
