import type { ReactNode } from 'react';

interface DataTableProps<Row> {
  /** Names the table (its visually hidden caption) and the scrolling region around it. */
  label: string;
  /** The header row's cells, each a `<th scope="col">`. */
  head: ReactNode;
  rows: readonly Row[];
  /** One row's `<tr>`, keyed. */
  row: (row: Row) => ReactNode;
  /** What stands instead of the table when there is no row; default: the table, with no row. */
  empty?: ReactNode;
  /** Classes beside `table-scroll` on the region (`card` where the table is a card of its own); default: none. */
  className?: string;
}

/**
 * A table in a region that scrolls sideways on a narrow screen. The region is
 * focusable so that a keyboard can scroll it, and named so that a screen
 * reader says what it is when focus lands there.
 */
export function DataTable<Row>({ label, head, rows, row, empty, className }: DataTableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return empty;
  return (
    <div className={className ? `table-scroll ${className}` : 'table-scroll'} role="region" aria-label={label} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{rows.map((item) => row(item))}</tbody>
      </table>
    </div>
  );
}
