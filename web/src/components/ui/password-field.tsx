import { checkPasswordCriteria, PASSWORD_MIN_LENGTH, type PasswordCriteria } from '@fsm/contracts';
import { TextField } from './text-field';

/** The words of each criterion of contracts' password rule (spec §5), in the order the spec lists them. */
const CRITERIA_LABELS: readonly { key: keyof Omit<PasswordCriteria, 'valid'>; label: string }[] = [
  { key: 'minLength', label: `${PASSWORD_MIN_LENGTH} caractères minimum` },
  { key: 'letter', label: 'Une lettre' },
  { key: 'digit', label: 'Un chiffre' },
  { key: 'special', label: 'Un caractère spécial (ex. ! ? @ #)' },
];

/**
 * The password rule's criteria, each ticked as soon as `password` meets it.
 * The rule is contracts' `checkPasswordCriteria`, the one the server refuses with.
 */
export function PasswordCriteriaList({ password }: { password: string }) {
  const criteria = checkPasswordCriteria(password);
  return (
    <ul className="criteria" aria-label="Critères du mot de passe">
      {CRITERIA_LABELS.map(({ key, label }) => {
        const met = criteria[key];
        return (
          <li key={key} className={met ? 'criteria__item criteria__item--met' : 'criteria__item'}>
            {label}
            <span className="visually-hidden">{met ? ' : respecté' : ' : non respecté'}</span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A new password with the change-password criteria ticked live (every
 * password we set follows that rule, docs/management-domain.md).
 */
export function NewPasswordField({
  label = 'Mot de passe',
  value,
  onChange,
  error,
  required,
  hint,
}: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  required?: boolean;
  hint?: string;
}) {
  return (
    <div className="stack stack--tight">
      <TextField
        label={label}
        type="password"
        autoComplete="new-password"
        required={required}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={error}
        hint={hint}
      />
      <PasswordCriteriaList password={value} />
    </div>
  );
}
