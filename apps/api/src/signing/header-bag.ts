import type { HeaderBag } from '@paysign/signing';

/**
 * Builds the header bag from the raw header list, so that a header sent twice
 * is seen as two values (Node would otherwise join them with ", ").
 */
export function headerBagFromRaw(rawHeaders: readonly string[]): HeaderBag {
  const bag: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    const value = rawHeaders[i + 1] as string;
    const existing = bag[name];
    if (existing === undefined) bag[name] = value;
    else bag[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return bag;
}
