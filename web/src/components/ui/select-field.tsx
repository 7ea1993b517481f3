import type { ReactNode, SelectHTMLAttributes } from 'react';
import { FieldFrame, type FieldFrameProps } from './field-frame';

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'>, FieldFrameProps {
  children: ReactNode;
}

/** A labelled select with its hint and error wired like TextField. */
export function SelectField({ label, hint, error, invalid, required, children, ...select }: SelectFieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} invalid={invalid} required={required}>
      {(control) => (
        <select {...select} {...control} className="select">
          {children}
        </select>
      )}
    </FieldFrame>
  );
}

/** A picker's options: a first empty choice reading `placeholder`, then one per item, by name unless `nameOf` says. */
export function NamedOptions<Item extends { id: string; nom: string }>({
  items,
  placeholder,
  nameOf = (item) => item.nom,
}: {
  items: readonly Item[];
  placeholder: string;
  nameOf?: (item: Item) => string;
}) {
  return (
    <>
      <option value="">{placeholder}</option>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {nameOf(item)}
        </option>
      ))}
    </>
  );
}

/** A picker's options from a query: 'Chargement…' as the first choice while the list loads. */
export function QueryOptions<Item extends { id: string; nom: string }>({
  query,
  placeholder,
  nameOf,
}: {
  query: { isPending: boolean; data?: readonly Item[] | undefined };
  placeholder: string;
  nameOf?: (item: Item) => string;
}) {
  return <NamedOptions items={query.data ?? []} placeholder={query.isPending ? 'Chargement…' : placeholder} nameOf={nameOf} />;
}
