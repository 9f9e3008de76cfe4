// What a member types as an amount: naira, with up to 2 decimals, read with
// integer arithmetic into kobo, as the service's payins search reads `q`.

const NAIRA = /^(0|[1-9][0-9]{0,8})(?:\.([0-9]{1,2}))?$/;

/** `1500` → 150000, `1500.5` → 150050, `1,500` or `-1` → undefined. Separators and signs are refused, not guessed. */
export function parseNaira(text: string): number | undefined {
  const match = NAIRA.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}
