/**
 * The currencies the platform settles and pays out: the payout providers
 * transfer naira only. A payin in another currency is refused at creation
 * (CURRENCY_NOT_SETTLEABLE) unless the operator has enabled that currency
 * for the merchant (`unsettledCurrencies`), who then settles it by hand,
 * outside the platform (docs/payins.md, "Currencies").
 */
export const SETTLEMENT_CURRENCIES: readonly string[] = ['NGN'];

/** Whether the platform settles and pays out `currency`. */
export function settles(currency: string): boolean {
  return SETTLEMENT_CURRENCIES.includes(currency);
}
