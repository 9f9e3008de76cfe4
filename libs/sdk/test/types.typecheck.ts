// Type-level tests, checked by the typecheck target (tsc --noEmit): each line
// marked with a ts-expect-error directive must be a type error, or tsc fails.
import { PaymentClient, verifyWebhook } from '../src';

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

export async function refundTypes(): Promise<void> {
  // @ts-expect-error payinReference is required
  await client.refunds.create({ reference: 'refund-1' });
  // @ts-expect-error amount is a number, not a string
  await client.refunds.create({ reference: 'refund-1', payinReference: 'order-1', amount: '500' });
  // @ts-expect-error the reason is one of the contract's
  await client.refunds.create({ reference: 'refund-1', payinReference: 'order-1', reason: 'changed_mind' });
  // @ts-expect-error status is one of the contract's states
  client.refunds.list({ status: 'REFUNDED' });
  // @ts-expect-error the outcome is one of the contract's
  await client.refunds.simulate('refund-1', { outcome: 'reversed' });
  // @ts-expect-error the account is given as an enquiry
  await client.refunds.setAccount('refund-1', { bankCode: '058', accountNumber: '0123456785' });

  const created = await client.refunds.create({ reference: 'refund-1', payinReference: 'order-1', amount: 500, reason: 'requested_by_customer' });
  const replayed: boolean = created.idempotentReplayed;
  const status: 'PENDING' | 'PROCESSING' | 'REQUIRES_ACTION' | 'SUCCESSFUL' | 'FAILED' | 'CANCELLED' = created.status;
  const fundedFrom: 'pending' | 'available' = created.fundedFrom;
  const { enquiryId } = await client.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
  const resent = await client.refunds.setAccount(created.reference, { enquiryId });
  const accountName: string | undefined = resent.account?.accountName;
  const page = await client.refunds.list({ payinReference: 'order-1', status: 'SUCCESSFUL', limit: 10 });
  for await (const refund of client.refunds.list({ payinReference: 'order-1' })) {
    const failure: 'declined_by_provider' | 'account_not_found' | 'provider_error' | null = refund.failureReason;
    void failure;
  }
  void [replayed, status, fundedFrom, accountName, page.nextCursor];
}

export function refundEventNarrowing(body: string, headers: Record<string, string>): void {
  const event = verifyWebhook(body, headers, 'whsec_x');
  if (event.type === 'refund.failed') {
    const payinReference: string = event.data.payinReference;
    const failure: 'declined_by_provider' | 'account_not_found' | 'provider_error' | null = event.data.failureReason;
    // @ts-expect-error a refund has no checkout, unlike a payin
    void event.data.checkoutUrl;
    void [payinReference, failure];
  }
  if (event.type === 'payin.successful') {
    // @ts-expect-error a payin has no payinReference: only a refund's event carries one
    void event.data.payinReference;
  }
}


export async function webhookEndpointTypes(): Promise<void> {
  // @ts-expect-error url is required
  await client.webhookEndpoints.create({ enabledEvents: '*' });
  // @ts-expect-error an event type is one of the contract's
  await client.webhookEndpoints.create({ url: 'https://merchant.example.com/hooks', enabledEvents: ['payin.paid'] });
  // @ts-expect-error event types are a list, or '*'; the SDK writes the contract's comma-separated form
  await client.webhookEndpoints.create({ url: 'https://merchant.example.com/hooks', enabledEvents: 'payin.successful,refund.failed' });
  // @ts-expect-error expiresIn is a number of seconds
  await client.webhookEndpoints.rollSecret('we_1', { expiresIn: '1h' });

  const created = await client.webhookEndpoints.create({ url: 'https://merchant.example.com/hooks', enabledEvents: ['payin.successful', 'refund.failed'], description: 'Orders' });
  const secret: string = created.secret;
  const status: 'enabled' | 'disabled' = created.status;
  const [endpoint] = await client.webhookEndpoints.list();
  // @ts-expect-error an endpoint read back never holds its secret, only fingerprints
  void endpoint?.secret;
  const fingerprints: string[] = endpoint?.secrets.map((s) => s.fingerprint) ?? [];
  const expiresAt: string | null | undefined = endpoint?.secrets[1]?.expiresAt;
  // The list an endpoint answers is what update takes, to add a type.
  const updated = await client.webhookEndpoints.update(created.id, { enabledEvents: [...created.enabledEvents, 'payout.failed'] });
  const paused = await client.webhookEndpoints.update(created.id, { enabled: false, description: '' });
  const rolled = await client.webhookEndpoints.rollSecret(created.id, { expiresIn: 3600 });
  const deleted: true = (await client.webhookEndpoints.delete(created.id)).deleted;
  void [secret, status, fingerprints, expiresAt, updated.updatedAt, paused.status, rolled.secret, deleted];
}
