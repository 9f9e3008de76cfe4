import type { ReactNode } from 'react';

interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** Fetches a paged list's next, older page; absent once the oldest page is shown. */
export function LoadOlderButton({ query, children }: { query: PagedQuery; children: ReactNode }) {
  if (!query.hasNextPage) return null;
  return (
    <button type="button" className="button secondary" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
      {children}
    </button>
  );
}
