/** Naira as a member types them: digits with optional thousands commas, and at most two decimals. */
const NAIRA = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** `5,000.5` → `500050` kobo, with integer arithmetic only; undefined for anything else. */
export function koboOfNaira(text: string): number | undefined {
  const trimmed = text.trim();
  const match = NAIRA.exec(trimmed);
  if (!match) return undefined;
  const [whole = '', fraction = ''] = trimmed.replace(/,/g, '').split('.');
  const kobo = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
  return kobo <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(kobo) : undefined;
}

/** `500050` kobo → `5000.50`, as the field shows it again. */
export function nairaTextOf(kobo: number): string {
  return `${Math.trunc(kobo / 100)}.${String(kobo % 100).padStart(2, '0')}`;
}
