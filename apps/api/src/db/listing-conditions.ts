/** What a listing newest first filters on in SQL: its creation window and the keyset position after the previous page. */
export interface CreatedWindow {
  createdFrom?: Date;
  createdTo?: Date;
  after?: { createdAt: Date; reference: string };
}

/**
 * The WHERE conditions of a listing ordered by `created_at DESC, reference
 * DESC`: `createdFrom` inclusive, `createdTo` exclusive, and the rows after
 * the previous page's last, each value pushed onto `params`.
 */
export function createdWindowConditions(window: CreatedWindow, params: unknown[]): string[] {
  const conditions: string[] = [];
  if (window.createdFrom !== undefined) conditions.push(`created_at >= $${params.push(window.createdFrom.toISOString())}::timestamptz`);
  if (window.createdTo !== undefined) conditions.push(`created_at < $${params.push(window.createdTo.toISOString())}::timestamptz`);
  if (window.after !== undefined) conditions.push(`(created_at, reference) < ($${params.push(window.after.createdAt.toISOString())}::timestamptz, $${params.push(window.after.reference)})`);
  return conditions;
}
