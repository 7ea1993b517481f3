export interface PaginationProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** Names the navigation landmark, e.g. 'Pages des clients'. */
  label: string;
}

/** Previous / next with 'Page x sur y'; nothing when everything fits on one page. */
export function Pagination({ page, pageCount, onPageChange, label }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" className="btn" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        Précédent
      </button>
      <span className="pagination__status" aria-live="polite">
        Page {page} sur {pageCount}
      </span>
      <button type="button" className="btn" disabled={page >= pageCount} onClick={() => onPageChange(page + 1)}>
        Suivant
      </button>
    </nav>
  );
}

/** How many pages `total` rows make at `pageSize` a page (at least 1). */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
