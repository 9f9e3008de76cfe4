import { formatMinorUnits } from '../money/format-kobo';

/** An amount of minor units (kobo), as ₦1,234.56. */
export function Money({ amount, currency }: { amount: number; currency: string }) {
  return <span className="money">{formatMinorUnits(amount, currency)}</span>;
}
