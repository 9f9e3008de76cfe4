// What a member types as an amount of naira, read as kobo with integer arithmetic only.

const NAIRA = /^(0|[1-9][0-9]{0,11})(?:\.([0-9]{1,2}))?$/;

/** `5000.5` → 500050; undefined for anything that is not naira with at most 2 decimal places (commas between thousands allowed). */
export function parseNaira(text: string): number | undefined {
  const match = NAIRA.exec(text.trim().replaceAll(',', ''));
  if (!match) return undefined;
  const [, whole = '0', cents = ''] = match;
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'));
}
