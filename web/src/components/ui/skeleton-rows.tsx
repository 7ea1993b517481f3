/** Grey rows in place of a table's body while it loads; one status line for screen readers. */
export function SkeletonRows({ columns, rows = 3, label = 'Chargement…' }: { columns: number; rows?: number; label?: string }) {
  return (
    <>
      {Array.from({ length: rows }, (_, i) => (
        <tr key={i} aria-hidden={i > 0 || undefined}>
          {Array.from({ length: columns }, (_, j) => (
            <td key={j}>
              {i === 0 && j === 0 ? (
                <span className="visually-hidden" role="status">
                  {label}
                </span>
              ) : null}
              <span className="skeleton" aria-hidden="true" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
