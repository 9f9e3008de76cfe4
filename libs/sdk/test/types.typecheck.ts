// Type-level tests, checked by the typecheck target (tsc --noEmit): each line
// marked with a ts-expect-error directive must be a type error, or tsc fails.
import { PaymentClient } from '../src';

declare const client: PaymentClient;

export async function wrongInputs(): Promise<void> {
  // @ts-expect-error accountNumber is required
  await client.accounts.enquire({ bankCode: '058' });
  // @ts-expect-error amount is a number, not a string
  await client.payins.create({ amount: '100', currency: 'NGN', customerEmail: 'a@example.com', reference: 'r' });
  // @ts-expect-error XYZ is not a supported currency
  await client.payins.create({ amount: 100, currency: 'XYZ', customerEmail: 'a@example.com', reference: 'r' });
  // @ts-expect-error reference is required
  await client.payins.create({ amount: 100, currency: 'NGN', customerEmail: 'a@example.com' });
  // @ts-expect-error getPayin takes the reference string
  await client.payins.get({ reference: 'r' });
  // @ts-expect-error merchantId is required
  new PaymentClient({ baseUrl: 'http://localhost:3000', apiKey: 'k', secretKey: 's', tenantId: 't' });
}

export async function rightTypes(): Promise<void> {
  const banks = await client.banks.list();
  const code: string = banks[0]?.code ?? '';
  const result = await client.accounts.enquire({ bankCode: code, accountNumber: '0123456785' });
  const name: string = result.accountName;
  const payin = await client.payins.create({ amount: 1000.5, currency: 'NGN', customerEmail: 'a@example.com', reference: name });
  const status: 'PENDING' | 'SUCCESSFUL' | 'FAILED' | 'ABANDONED' | 'CANCELLED' = payin.status;
  const checkoutUrl: string | null = payin.checkoutUrl;
  const expiresAt: string = payin.expiresAt;
  const page = await client.payins.list({ status: 'SUCCESSFUL', limit: 50 });
  const next: string | null = page.nextCursor;
  for await (const listed of client.payins.list({ status: 'FAILED' })) {
    const reason:
      | 'card_declined'
      | 'insufficient_funds'
      | 'expired_card'
      | 'incorrect_cvc'
      | 'transfer_not_received'
      | 'fraud_suspected'
      | 'too_many_attempts'
      | 'checkout_expired'
      | 'customer_cancelled'
      | 'merchant_cancelled'
      | null = listed.failureReason;
    const declines: Array<'card_declined' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc' | 'transfer_not_received' | 'fraud_suspected' | null> = listed.attempts.map((attempt) => attempt.declineReason);
    void [reason, declines];
  }
  const firstPage = await client.payins.list();
  const simulated = await client.payins.simulate(payin.reference, { outcome: 'failed', failureReason: 'insufficient_funds' });
  const declined = await client.payins.simulate(payin.reference, { outcome: 'declined' });
  const attemptOutcome: 'succeeded' | 'declined' | undefined = declined.attempts[0]?.outcome;
  void [attemptOutcome, status, checkoutUrl, expiresAt, next, firstPage.hasMore, simulated];
}

export async function listingTypes(): Promise<void> {
  // @ts-expect-error status is one of the contract's states
  await client.payins.list({ status: 'PAID' });
  // @ts-expect-error the outcome is one of the contract's
  await client.payins.simulate('r', { outcome: 'refunded' });
  // @ts-expect-error a cursor is the text of a page's nextCursor
  client.payins.list({ cursor: 42 });
}
