import type { ReactNode } from 'react';
import { SkeletonRows } from './skeleton-rows';

export interface DataTableProps {
  /** Read by screen readers only. */
  caption: string;
  /** The column headings; a `false` one is a column this user does not see. */
  headers: readonly (string | false)[];
  /** Modifiers added to `data-table`, e.g. `data-table--selectable`. */
  modifiers?: string;
  /** Skeleton rows in place of the body while the list loads. */
  pending: boolean;
  /** The body is being refreshed (aria-busy). */
  refreshing?: boolean;
  /** True shows `emptyText` in one row across the table instead of `children`. */
  isEmpty: boolean;
  emptyText: ReactNode;
  /** The rows. */
  children: ReactNode;
}

/** A management list: headings, then skeleton rows while loading, the empty text, or the rows. */
export function DataTable({ caption, headers, modifiers, pending, refreshing, isEmpty, emptyText, children }: DataTableProps) {
  const shown = headers.filter((header): header is string => header !== false);
  return (
    <table className={modifiers ? `data-table ${modifiers}` : 'data-table'}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {shown.map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody aria-busy={refreshing || undefined}>
        {pending ? (
          <SkeletonRows columns={shown.length} />
        ) : isEmpty ? (
          <tr>
            <td colSpan={shown.length} className="data-table__empty">
              {emptyText}
            </td>
          </tr>
        ) : (
          children
        )}
      </tbody>
    </table>
  );
}
