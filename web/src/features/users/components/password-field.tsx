import { TextField } from '../../../components/ui/text-field';
import { PASSWORD_CRITERIA } from '../../auth/password-rules';

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
      <ul className="criteria" aria-label="Critères du mot de passe">
        {PASSWORD_CRITERIA.map((criterion) => {
          const met = criterion.test(value);
          return (
            <li key={criterion.id} className={met ? 'criteria__item criteria__item--met' : 'criteria__item'}>
              {criterion.label}
              <span className="visually-hidden">{met ? ' : respecté' : ' : non respecté'}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
