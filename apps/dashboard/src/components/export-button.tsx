import type { DashboardPaths } from '@paysign/contracts';

/** The reports the dashboard exports: `GET /exports/{report}.csv`. */
export type ReportName = DashboardPaths['/exports/{report}.csv']['parameters']['path']['report'];

/** Where a report's window starts when the page sets none: before any payment the service can hold. */
const EARLIEST = '2000-01-01T00:00:00Z';
/** How far past the browser's now the window ends when the page sets no end: a day, so that a browser's clock behind the service's loses no row. */
const AHEAD_MS = 86_400_000;

interface ExportButtonProps {
  report: ReportName;
  /** The page's filters the report takes (its `from`, `to`, status…); unset ones are left out. Without `from` and `to`, every row up to now. */
  filters: Readonly<Record<string, string | undefined>>;
  /** Said after the link, such as which of the page's filters the report does not take. */
  note?: string;
}

/**
 * Downloads the report of the page's rows as CSV. A plain link: the session
 * cookie authenticates the GET, and the browser streams the file to disk
 * without the page holding it, however many rows it has.
 */
export function ExportButton({ report, filters, note }: ExportButtonProps) {
  const query = new URLSearchParams({ from: EARLIEST, to: new Date(Date.now() + AHEAD_MS).toISOString() });
  // A filter the page leaves unset keeps the default, never an empty value the report would refuse.
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  return (
    <p className="export">
      <a className="button secondary" href={`/payment/dashboard/api/exports/${report}.csv?${query.toString()}`} download>
        Export CSV
      </a>
      {note ? <span className="hint"> {note}</span> : null}
    </p>
  );
}
