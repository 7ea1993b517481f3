import { useState } from 'react';

/** The search box and page of a paged list: a new search goes back to the first page. */
export function usePagedSearch() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const searchFor = (value: string) => {
    setSearch(value);
    setPage(1);
  };
  return { search, searchFor, page, setPage };
}
