import type { InputHTMLAttributes } from 'react';
import { FieldFrame, type FieldFrameProps } from './field-frame';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'>, FieldFrameProps {}

/** A labelled input with its hint and error wired for assistive technologies. */
export function TextField({ label, hint, error, invalid, required, ...input }: TextFieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} invalid={invalid} required={required}>
      {(control) => <input {...input} {...control} className="input" />}
    </FieldFrame>
  );
}
