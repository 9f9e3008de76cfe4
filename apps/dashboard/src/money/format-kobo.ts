// Amounts travel as integers of the currency's minor unit (kobo for NGN). They
// are formatted with integer arithmetic only: a float would round some of them.

const MINOR_UNITS_PER_MAJOR = 100;
const SYMBOLS: Record<string, string> = { NGN: '₦' };

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `123456` NGN → `₦1,234.56`; `-5` → `-₦0.05`; another currency is prefixed by its code (`USD 1.00`). */
export function formatMinorUnits(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`An amount must be a safe integer of minor units, not ${amount}.`);
  const negative = amount < 0;
  const magnitude = BigInt(Math.abs(amount));
  const major = magnitude / BigInt(MINOR_UNITS_PER_MAJOR);
  const minor = magnitude % BigInt(MINOR_UNITS_PER_MAJOR);
  const symbol = SYMBOLS[currency] ?? `${currency} `;
  return `${negative ? '-' : ''}${symbol}${groupThousands(major.toString())}.${minor.toString().padStart(2, '0')}`;
}
