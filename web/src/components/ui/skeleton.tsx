
export function SkeletonCards({ count = 3, label = 'Chargement…' }: { count?: number; label?: string }) {
  return (
    <div className="stack" aria-busy="true">
      <span className="visually-hidden" role="status">
        {label}
      </span>
      {Array.from({ length: count }, (_, i) => (
        <span key={i} className="skeleton skeleton--card" aria-hidden="true" />
      ))}
    </div>
  );
}
