import { ErrorAlert } from './error-alert';

interface QueryState {
  error: unknown;
  isPending: boolean;
}

/** What a query shows until its data arrives: the service's error, or that it is still loading. */
export function QueryStatus({ query }: { query: QueryState }) {
  return (
    <>
      <ErrorAlert error={query.error} />
      {query.isPending ? <p>Loading…</p> : null}
    </>
  );
}
