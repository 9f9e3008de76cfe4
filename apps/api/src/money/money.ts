/**
 * An exact amount of one currency in minor units (kobo for NGN), as the
 * service stores, compares and adds money. The contract's `amount` is in
 * major units with at most 2 decimals; these are the only conversions
 * between the two.
 */
export interface Money {
  readonly minor: bigint;
  readonly currency: string;
}

/** Minor units in one major unit: every currency the contract lists has two decimals. */
const MINOR_PER_MAJOR = 100;

/** A number's shortest decimal text, when it has at most 2 decimals: `1000.5`, never `1e-7`. */
const TWO_DECIMALS = /^(-?[0-9]+)(?:\.([0-9]{1,2}))?$/;

/**
 * The Money a contract amount names, read from the number's shortest
 * decimal text, so exactly: no multiplication, whose float noise
 * (0.29 * 100 = 28.999…) would need rounding. An amount with more than 2
 * decimals (refused from the bytes sent, before this) is a RangeError.
 */
export function moneyFromAmount(amount: number, currency: string): Money {
  const parts = Number.isFinite(amount) ? TWO_DECIMALS.exec(String(amount)) : null;
  if (!parts) throw new RangeError(`amount ${amount} is not a whole number of minor units; the contract allows at most 2 decimals`);
  const [, whole, cents = ''] = parts as unknown as [string, string, string | undefined];
  const minor = BigInt(whole) * BigInt(MINOR_PER_MAJOR) + (whole.startsWith('-') ? -1n : 1n) * BigInt(cents.padEnd(2, '0') || '0');
  return { minor, currency };
}

/** The contract's `amount` of `money`: major units, the nearest double to the exact decimal. */
export function amountOf(money: Money): number {
  const whole = money.minor / BigInt(MINOR_PER_MAJOR);
  const cents = money.minor % BigInt(MINOR_PER_MAJOR);
  return Number(`${whole}.${(cents < 0n ? -cents : cents).toString().padStart(2, '0')}`);
}

/** The amount as a customer reads it: ₦1,500.50. */
export function formatMoney(money: Money, locale = 'en-NG'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency, currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2 }).format(amountOf(money));
}

/** Minor units as major units with exactly two decimals, by integer arithmetic, never a float: 150050n is `1500.50`, -5n is `-0.05`. */
export function majorUnitsText(minor: bigint): string {
  const unit = BigInt(MINOR_PER_MAJOR);
  const magnitude = minor < 0n ? -minor : minor;
  return `${minor < 0n ? '-' : ''}${magnitude / unit}.${(magnitude % unit).toString().padStart(2, '0')}`;
}
