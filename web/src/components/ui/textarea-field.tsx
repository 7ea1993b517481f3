import type { TextareaHTMLAttributes } from 'react';
import { FieldFrame, type FieldFrameProps } from './field-frame';

export interface TextareaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'>, FieldFrameProps {}

/** A labelled multi-line field with its hint and error wired like TextField. */
export function TextareaField({ label, hint, error, invalid, required, ...textarea }: TextareaFieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} invalid={invalid} required={required}>
      {(control) => <textarea rows={4} {...textarea} {...control} className="textarea" />}
    </FieldFrame>
  );
}
