import type { ReactNode } from 'react';

/** One line of a ticket's facts (a `<dl>`): left out when there is nothing to say. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
