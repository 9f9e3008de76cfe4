import { randomUUID } from 'node:crypto';
import { merchantAdmin, setPayoutApproval, startTestApp, type TestApp } from '@paysign/api/testing';
import { PaymentClient } from '@paysign/sdk';
import { RunningClock } from './running-clock';

/** A merchant as `merchants add --owner-email` leaves it: its first key, and its owner's one-time setup link. */
export interface OnboardedMerchant {
  merchantId: string;
  tenantId: string;
  name: string;
  ownerEmail: string;
  setupUrl: string;
  apiKey: string;
  secretKey: string;
}

/**
 * The real service for a browser suite, on a PostgreSQL database of its own,
 * its clock a RunningClock. The browser opens it at http://localhost:<port>:
 * WebAuthn refuses an IP address as relying party id, and the sandbox binds
 * passkeys to the host the browser used.
 */
export class DashboardService {
  private constructor(
    readonly api: TestApp,
    readonly clock: RunningClock,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<DashboardService> {
    const clock = new RunningClock();
    // The suite's browsers are one address clicking through a team's week in a minute: the per-address limit of unsigned pages is raised out of the way.
    const api = await startTestApp({ RATE_LIMIT_PUBLIC_PER_ADDRESS_PER_MINUTE: '1000000', ...env }, { overrides: { clock: clock.now } });
    return new DashboardService(api, clock);
  }

  get origin(): string {
    return this.api.baseUrl.replace('127.0.0.1', 'localhost');
  }

  /** The page at `route` of the dashboard, e.g. `keys` or `` for home. */
  url(route = ''): string {
    return `${this.origin}/payment/dashboard/${route}`;
  }

  /** Adds a merchant as the operator does, with an owner to onboard through the link printed. */
  async addMerchant(label: string): Promise<OnboardedMerchant> {
    const merchantId = `MCH-${label}-${randomUUID().slice(0, 6)}`;
    const tenantId = `TEN-${label}`;
    const name = `${label} Shop`;
    const ownerEmail = `${label.toLowerCase()}-owner-${randomUUID().slice(0, 6)}@example.com`;
    const added = await merchantAdmin(this.api).run((admin) => admin.add({ merchantId, tenantId, name, owner: { email: ownerEmail, origin: this.origin, ttlSeconds: 3600 } }));
    if (!added.owner) throw new Error(`merchants add printed no setup link for ${merchantId}`);
    return { merchantId, tenantId, name, ownerEmail, setupUrl: added.owner.setupUrl, apiKey: added.apiKey, secretKey: added.secretKey };
  }

  /** Another owner's setup link for an existing merchant, as `merchants setup-link` prints it. */
  async setupLink(merchantId: string, email: string): Promise<string> {
    return (await merchantAdmin(this.api).run((admin) => admin.setupLink(merchantId, { email, origin: this.origin, ttlSeconds: 3600 }))).setupUrl;
  }

  /** The SDK signing with a key, by the service's clock, without retries: a refusal is seen as it is. */
  sdk(merchant: Pick<OnboardedMerchant, 'merchantId' | 'tenantId'>, key: { apiKey: string; secretKey: string }): PaymentClient {
    return new PaymentClient({ baseUrl: this.api.baseUrl, merchantId: merchant.merchantId, tenantId: merchant.tenantId, ...key, clock: this.clock.now, maxRetries: 0 });
  }

  /** A customer's payin of `naira`, paid in the sandbox: the merchant's balance and collections show it. */
  async collect(merchant: OnboardedMerchant, naira: number): Promise<void> {
    const sdk = this.sdk(merchant, merchant);
    const payin = await sdk.payins.create({ amount: naira, currency: 'NGN', customerEmail: 'ada@example.com', reference: `order-${randomUUID().slice(0, 8)}` });
    await sdk.payins.simulate(payin.reference, { outcome: 'successful' });
  }

  /**
   * A payout of `naira` waiting for a member's approval: the merchant's policy
   * asks for one from 1 naira, a sandbox payin funds it, and the key from
   * `merchants add` (which no member made) creates it.
   */
  async payoutAwaitingApproval(merchant: OnboardedMerchant, naira: number): Promise<string> {
    await setPayoutApproval(this.api, merchant.merchantId, { required: true, thresholdNaira: 1 });
    await this.collect(merchant, naira * 2);
    const sdk = this.sdk(merchant, merchant);
    const { enquiryId } = await sdk.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
    const payout = await sdk.payouts.create({ reference: `approve-${randomUUID().slice(0, 8)}`, amount: naira, currency: 'NGN', enquiryId, narration: 'Invoice 7' });
    if (payout.status !== 'PENDING_APPROVAL') throw new Error(`payout ${payout.reference} is ${payout.status}, not PENDING_APPROVAL`);
    return payout.reference;
  }

  close(): Promise<void> {
    return this.api.close();
  }
}
