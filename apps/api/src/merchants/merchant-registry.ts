import type { WebhookEventType } from '@paysign/contracts';
import { createHash } from 'node:crypto';
import type { EventTarget } from '../events/outbox-event';
import { DEFAULT_FEES, type FeeSchedule } from '../money/fees';
import { NO_BRANDING, type Branding } from './branding';
import type { Credential, Merchant, MerchantStatus, WebhookEndpoint, WebhookSigningSecret } from './merchant';
import { readMerchantsFile, type MerchantFileOptions } from './merchants-file';
import { DEFAULT_ROLES, NO_APPROVAL, type PayoutApprovalPolicy, type PayoutRole } from './payout-approval';

/** The events a merchant receives only when it asks for them: the contract's webhooks that say they are opt-in. */
export const OPT_IN_EVENTS = ['payin.attempt_failed'] as const satisfies readonly WebhookEventType[];
export type OptInEvent = (typeof OPT_IN_EVENTS)[number];

/**
 * A merchant as the registry holds it: from the database, or from a
 * merchants file (the import's format, and tests'). `fees` left out are the
 * defaults (DEFAULT_FEES), and no `payoutApproval` is none.
 */
export type MerchantEntry = Merchant & {
  /** Default: active. */
  status?: MerchantStatus;
  credentials: readonly Credential[];
  /** A file's webhook secrets: they become its webhookUrl's endpoint, or, without one, sign notifyUrl events. */
  webhookSecrets?: readonly string[];
  /** A file's webhookUrl: the endpoint that receives every event (see webhookEndpoints). */
  webhookUrl?: string;
  /** The database's endpoints; when left out, those a file's webhookUrl makes. */
  webhookEndpoints?: readonly WebhookEndpoint[];
  /** Events sent only to merchants that ask for them (OPT_IN_EVENTS). */
  webhookOptInEvents?: readonly OptInEvent[];
  fees?: FeeSchedule;
  payoutApproval?: PayoutApprovalPolicy;
  /** `displayName`, `brandColor` and `logo` in the file, read into one (merchants/branding.ts). */
  branding?: Branding;
  /** Currencies the platform does not settle that the merchant may still collect, settled by the operator by hand (money/settlement-currencies.ts). Default none. */
  unsettledCurrencies?: readonly string[];
};

interface ActiveCredential {
  merchant: Merchant;
  secretKey: string;
  roles: ReadonlySet<PayoutRole>;
  /** Epoch ms after which the key is refused; Infinity: never. */
  expiresAtMs: number;
}

interface MerchantSettings {
  merchant: Merchant;
  /** What signs events sent to an object's notifyUrl when the merchant has no enabled endpoint. */
  notifySecrets: readonly WebhookSigningSecret[];
  endpoints: readonly WebhookEndpoint[];
  fees: FeeSchedule;
  webhookOptInEvents: ReadonlySet<OptInEvent>;
  payoutApproval: PayoutApprovalPolicy;
  branding: Branding;
  unsettledCurrencies: ReadonlySet<string>;
  active: boolean;
}

/** What a reload changed: IDs only, never a secret. */
export interface MerchantChanges {
  merchantsAdded: string[];
  merchantsRemoved: string[];
  keysAdded: string[];
  keysRevoked: string[];
  keysRemoved: string[];
  /** Keys whose payout roles changed. */
  rolesChanged: string[];
  /** Merchants whose opt-in webhook events changed. */
  webhookOptInsChanged: string[];
}

/** The endpoint a merchants file's webhookUrl stands for, when the entry has no endpoints of its own. */
export const FILE_ENDPOINT_ID = 'we_merchantsfilewebhookurl';

/**
 * Resolves API keys to their merchant and secret, from memory: no store is
 * asked per request. Replaced whole at each sync (merchants-sync.ts), so a
 * lookup never sees half a change. A key past its `expiresAt` is refused at
 * once, without waiting for a sync.
 */
export class MerchantRegistry {
  private byApiKey = new Map<string, ActiveCredential>();
  private byMerchantId = new Map<string, MerchantSettings>();
  private entries: readonly MerchantEntry[] = [];
  /** Until when, by the real clock, the merchants in force are known to match the database; a sync moves it on at each good check. */
  private freshUntilMs = Infinity;
  /** Keys used since the last `takeUsed`, with when first: written to the store in batches, never per request. */
  private used = new Map<string, number>();

  constructor(
    entries: readonly MerchantEntry[],
    private readonly clock: () => number = Date.now,
  ) {
    this.replace(entries);
  }

  /** Puts a validated set of merchants in force at once, and says what changed. */
  replace(entries: readonly MerchantEntry[]): MerchantChanges {
    const byApiKey = new Map<string, ActiveCredential>();
    const byMerchantId = new Map<string, MerchantSettings>();
    for (const entry of entries) {
      const { credentials, merchantId, tenantId, name, status = 'active', webhookOptInEvents = [], fees = DEFAULT_FEES, payoutApproval = NO_APPROVAL, branding = NO_BRANDING, unsettledCurrencies = [] } = entry;
      // The merchant a request carries: its identity only, never a secret.
      const merchant = { merchantId, tenantId, name };
      const { endpoints, notifySecrets } = endpointsOf(entry);
      const suspended = status === 'suspended';
      const keys = suspended ? [] : credentials.filter((c) => c.status !== 'revoked');
      byMerchantId.set(merchantId, { merchant, notifySecrets, endpoints, fees, webhookOptInEvents: new Set(webhookOptInEvents), payoutApproval, branding, unsettledCurrencies: new Set(unsettledCurrencies), active: keys.length > 0 });
      for (const { apiKey, secretKey, roles = DEFAULT_ROLES, expiresAt } of keys) byApiKey.set(apiKey, { merchant, secretKey, roles: new Set(roles), expiresAtMs: expiresAt?.getTime() ?? Infinity });
    }
    const changes = diff(this.entries, entries);
    this.byApiKey = byApiKey;
    this.byMerchantId = byMerchantId;
    this.entries = entries;
    return changes;
  }

  static fromFile(file: string, options: MerchantFileOptions = {}): MerchantRegistry {
    return new MerchantRegistry(readMerchantsFile(file, options));
  }

  /** The active, unexpired credential of `apiKey`; undefined for an unknown, revoked, expired or suspended one. */
  private credentialOf(apiKey: string): ActiveCredential | undefined {
    const credential = this.byApiKey.get(apiKey);
    // The clock is read only for a key that expires: most never do, and this runs several times per request.
    if (!credential || (credential.expiresAtMs !== Infinity && credential.expiresAtMs <= this.clock())) return undefined;
    return credential;
  }

  /** The secret of an active credential; undefined for an unknown, revoked or expired key. Notes the key as used. */
  secretFor(apiKey: string): string | undefined {
    const credential = this.credentialOf(apiKey);
    // Its first use since the last write is noted, to within MERCHANTS_LAST_USED_FLUSH_SECONDS of its last: one lookup per request after that.
    if (credential && !this.used.has(apiKey)) this.used.set(apiKey, this.clock());
    return credential?.secretKey;
  }

  merchantFor(apiKey: string): Merchant | undefined {
    return this.credentialOf(apiKey)?.merchant;
  }

  /** Whether the active credential `apiKey` holds `role`; a revoked, expired or unknown key holds none. Read per request, so a sync applies at once. */
  hasRole(apiKey: string, role: PayoutRole): boolean {
    return this.credentialOf(apiKey)?.roles.has(role) ?? false;
  }

  /** Marks the merchants in force as matching the database until `untilMs` (the real clock's), unless a later good check moves it on. */
  keepFreshUntil(untilMs: number): void {
    this.freshUntilMs = untilMs;
  }

  /** Whether the merchants in force may be behind the database by more than the sync allows: no key is then trusted. */
  isStale(nowMs = Date.now()): boolean {
    return this.freshUntilMs !== Infinity && nowMs > this.freshUntilMs;
  }

  /** The keys used since the last call, and when each was first used since; the caller writes them to the store. */
  takeUsed(): Map<string, number> {
    const used = this.used;
    this.used = new Map();
    return used;
  }

  /** The merchant's `payoutApproval`: none for a merchant that set none, or is no longer known. */
  payoutApprovalOf(merchantId: string): PayoutApprovalPolicy {
    return this.byMerchantId.get(merchantId)?.payoutApproval ?? NO_APPROVAL;
  }

  /** How the merchant's checkout looks: none for a merchant that set none, or is no longer known. */
  brandingOf(merchantId: string): Branding {
    return this.byMerchantId.get(merchantId)?.branding ?? NO_BRANDING;
  }

  /**
   * The secrets that sign an event: its endpoint's, or, for an object's own
   * notifyUrl, those of the merchant's oldest enabled endpoint, else the
   * notify secrets of its merchants file. Only those not yet expired; empty
   * when there are none (a deleted endpoint), and the event is not sent.
   */
  signingSecretsOf(merchantId: string, endpointId?: string | null): readonly string[] {
    const settings = this.byMerchantId.get(merchantId);
    if (!settings) return [];
    const now = this.clock();
    const live = (secrets: readonly WebhookSigningSecret[]) => secrets.filter((s) => (s.expiresAt?.getTime() ?? Infinity) > now).map((s) => s.secret);
    // A disabled endpoint receives nothing, queued events included, until it is enabled again.
    if (endpointId) return live(settings.endpoints.find((endpoint) => endpoint.id === endpointId && endpoint.enabled)?.secrets ?? []);
    const primary = settings.endpoints.find((endpoint) => endpoint.enabled);
    return live(primary ? primary.secrets : settings.notifySecrets);
  }

  /** Whether an object created with a notifyUrl could have its events signed. */
  canSignNotifications(merchantId: string): boolean {
    return this.signingSecretsOf(merchantId).length > 0;
  }

  /**
   * Where an event of `type` goes: the object's notifyUrl alone when it has
   * one; else every enabled endpoint that names the type, or `*` for a type
   * that is not opt-in (OPT_IN_EVENTS), or `*` and the merchant opted in.
   */
  eventTargets(merchantId: string, type: string, notifyUrl?: string | null): EventTarget[] {
    const settings = this.byMerchantId.get(merchantId);
    const optIn = (OPT_IN_EVENTS as readonly string[]).includes(type);
    const optedIn = optIn && (settings?.webhookOptInEvents.has(type as OptInEvent) ?? false);
    if (notifyUrl) return !optIn || optedIn ? [{ notifyUrl }] : [];
    return (settings?.endpoints ?? [])
      .filter((endpoint) => endpoint.enabled && (endpoint.enabledEvents.includes(type) || (endpoint.enabledEvents.includes('*') && (!optIn || optedIn))))
      .map((endpoint) => ({ notifyUrl: endpoint.url, endpointId: endpoint.id }));
  }

  /** Whether the merchant asked for an opt-in event; read per event, so a sync applies to the next one. */
  optedInTo(merchantId: string, event: OptInEvent): boolean {
    return this.byMerchantId.get(merchantId)?.webhookOptInEvents.has(event) ?? false;
  }

  /** What the merchant pays: its `fees`, or the defaults; the defaults too for a merchant no longer known. */
  /** Whether the operator enabled `currency`, which the platform does not settle, for the merchant: it settles it by hand. */
  collectsUnsettled(merchantId: string, currency: string): boolean {
    return this.byMerchantId.get(merchantId)?.unsettledCurrencies.has(currency) ?? false;
  }

  feesOf(merchantId: string): FeeSchedule {
    return this.byMerchantId.get(merchantId)?.fees ?? DEFAULT_FEES;
  }

  /**
   * A merchant whose customers may still pay it: known, not suspended, with
   * at least one active key. A merchant with every key revoked can no longer
   * create, read or confirm a payin, so it counts as revoked, and its
   * checkout takes no payment the merchant could never see. A roll adds the
   * new key before the old one ends, so never leaves a merchant without one.
   */
  merchantTakingPayments(merchantId: string): Merchant | undefined {
    const found = this.byMerchantId.get(merchantId);
    return found?.active ? found.merchant : undefined;
  }
}

/** The endpoints of an entry: its own, or the one its file's webhookUrl stands for; and what signs notifyUrl events without one. */
function endpointsOf(entry: MerchantEntry): { endpoints: readonly WebhookEndpoint[]; notifySecrets: readonly WebhookSigningSecret[] } {
  const fileSecrets = (entry.webhookSecrets ?? []).map((secret) => ({ secret, fingerprint: fingerprintOf(secret), createdAt: new Date(0) }));
  if (entry.webhookEndpoints) return { endpoints: entry.webhookEndpoints, notifySecrets: fileSecrets };
  if (!entry.webhookUrl) return { endpoints: [], notifySecrets: fileSecrets };
  const endpoint: WebhookEndpoint = { id: FILE_ENDPOINT_ID, url: entry.webhookUrl, enabledEvents: ['*'], description: null, enabled: true, secrets: fileSecrets, createdAt: new Date(0), updatedAt: new Date(0) };
  return { endpoints: [endpoint], notifySecrets: [] };
}

/** The first 12 hex digits of a secret's SHA-256: enough to tell secrets apart, nothing to sign with. */
export function fingerprintOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12);
}

function diff(before: readonly MerchantEntry[], after: readonly MerchantEntry[]): MerchantChanges {
  const merchantIds = (entries: readonly MerchantEntry[]) => new Set(entries.map((e) => e.merchantId));
  const keyStatus = (entries: readonly MerchantEntry[]) => new Map(entries.flatMap((e) => e.credentials.map((c) => [c.apiKey, c.status ?? 'active'] as const)));
  const [merchantsBefore, merchantsAfter] = [merchantIds(before), merchantIds(after)];
  const [keysBefore, keysAfter] = [keyStatus(before), keyStatus(after)];
  const keyRoles = (entries: readonly MerchantEntry[]) => new Map(entries.flatMap((e) => e.credentials.map((c) => [c.apiKey, [...(c.roles ?? DEFAULT_ROLES)].sort().join(',')] as const)));
  const [rolesBefore, rolesAfter] = [keyRoles(before), keyRoles(after)];
  const optIns = (entries: readonly MerchantEntry[]) => new Map(entries.map((e) => [e.merchantId, [...(e.webhookOptInEvents ?? [])].sort().join(',')] as const));
  const [optInsBefore, optInsAfter] = [optIns(before), optIns(after)];
  return {
    merchantsAdded: [...merchantsAfter].filter((id) => !merchantsBefore.has(id)),
    merchantsRemoved: [...merchantsBefore].filter((id) => !merchantsAfter.has(id)),
    keysAdded: [...keysAfter].filter(([key, status]) => status === 'active' && keysBefore.get(key) !== 'active').map(([key]) => key),
    keysRevoked: [...keysAfter].filter(([key, status]) => status === 'revoked' && keysBefore.get(key) === 'active').map(([key]) => key),
    keysRemoved: [...keysBefore.keys()].filter((key) => !keysAfter.has(key)),
    rolesChanged: [...rolesAfter].filter(([key, roles]) => rolesBefore.has(key) && rolesBefore.get(key) !== roles).map(([key]) => key),
    webhookOptInsChanged: [...optInsAfter].filter(([merchantId, events]) => (optInsBefore.get(merchantId) ?? '') !== events).map(([merchantId]) => merchantId),
  };
}
