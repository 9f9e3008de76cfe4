import { randomBytes } from 'node:crypto';
import { HEADER_GRAMMAR } from '@paysign/signing';
import type { ServiceMode } from '../config/service-mode';
import { toDate } from '../db/sql-client';
import { displayTextError } from '../http/display-text';
import { fingerprintOf } from './merchant-registry';
import { unsettledCurrenciesProblem } from './merchants-file';
import { json, type Actor, type CredentialRow, type MerchantRow, type MerchantStore } from './merchant-store';
import { createOwnerSetupLink, OWNER_EMAIL, type SetupLink } from './owner-setup-link';
import { DEFAULT_ROLES, PAYOUT_ROLES, type PayoutRole } from './payout-approval';

/** The roles of a key `merchants add` mints when --roles names none: what a merchant needs to integrate, approving payouts aside. */
export const NEW_MERCHANT_ROLES: readonly PayoutRole[] = [...DEFAULT_ROLES, 'webhooks:manage', 'settlements:manage'];
/** The longest overlap a roll gives the old key: 7 days, as Stripe's longest. */
export const MAX_ROLL_EXPIRY_SECONDS = 7 * 24 * 3600;
/** The two roles four eyes keeps on separate keys. */
const FOUR_EYES_ROLES = ['payouts:create', 'payouts:approve'] as const;

/** An operator's mistake: a message saying what to do, and nothing written. */
export class Refusal extends Error {}

/** A key and its secret, shown once. */
export interface NewCredential {
  merchantId: string;
  tenantId: string;
  apiKey: string;
  secretKey: string;
  roles: readonly PayoutRole[];
}

/** A key as `show` describes it: never its secret, only the secret's fingerprint. */
export interface KeyView {
  apiKey: string;
  roles: readonly string[];
  status: 'active' | 'revoked' | 'expired';
  secretFingerprint: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/**
 * The operator's changes to merchants and their keys, each one transaction
 * with its audit line (MerchantStore.change). Keys and secrets come from
 * crypto.randomBytes in fixed formats: `pk_live_` in production and
 * `pk_test_` elsewhere, and 256-bit secrets.
 */
export class MerchantAdmin {
  constructor(
    private readonly store: MerchantStore,
    private readonly mode: ServiceMode,
    private readonly actor: Actor,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Where setup links point, and how long they last: the service's public origin and DASHBOARD_LINK_TTL_SECONDS. */
  static linkSettings(env: Readonly<Record<string, string | undefined>>): { origin: string; ttlSeconds: number } {
    const ttl = Number(env.DASHBOARD_LINK_TTL_SECONDS ?? 259_200);
    return { origin: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/+$/, ''), ttlSeconds: Number.isInteger(ttl) && ttl >= 300 && ttl <= 1_209_600 ? ttl : 259_200 };
  }

  async add(input: { merchantId: string; tenantId: string; name: string; roles?: readonly PayoutRole[]; owner?: { email: string; origin: string; ttlSeconds: number } }): Promise<NewCredential & { owner?: SetupLink }> {
    for (const field of ['merchantId', 'tenantId'] as const) if (!HEADER_GRAMMAR[field].pattern.test(input[field])) throw new Refusal(`--${field === 'merchantId' ? 'merchant-id' : 'tenant-id'} must be ${HEADER_GRAMMAR[field].rule}.`);
    const nameError = input.name.trim() === '' ? new Error('--name must not be empty.') : displayTextError('--name', input.name);
    if (nameError) throw new Refusal(nameError.message);
    if (input.owner && !OWNER_EMAIL.test(input.owner.email)) throw new Refusal('--owner-email must be one email address, such as ada@example.com.');
    const roles = input.roles ?? NEW_MERCHANT_ROLES;
    const credential = this.newCredential();
    const now = this.now();
    const owner = await this.store.change(this.actor, 'add', { merchantId: input.merchantId, subject: credential.apiKey, detail: { roles, ...(input.owner ? { ownerEmail: input.owner.email } : {}) } }, async (tx) => {
      if (await this.store.merchant(tx, input.merchantId)) throw new Refusal(`Merchant ${input.merchantId} already exists; give it another key with roll-key.`);
      await tx.query("INSERT INTO merchants (merchant_id, tenant_id, name, status, created_at, updated_at) VALUES ($1, $2, $3, 'active', $4, $4)", [input.merchantId, input.tenantId, input.name, now.toISOString()]);
      await this.store.insertCredential(tx, input.merchantId, { ...credential, roles }, now);
      return input.owner && createOwnerSetupLink(tx, { merchantId: input.merchantId, email: input.owner.email, createdBy: this.actor.actor, origin: input.owner.origin, ttlSeconds: input.owner.ttlSeconds, now });
    });
    return { merchantId: input.merchantId, tenantId: input.tenantId, ...credential, roles, ...(owner ? { owner } : {}) };
  }

  /** A new setup link that makes `email` an owner of the merchant: the first owner's, when theirs expired or was lost. */
  async setupLink(merchantId: string, link: { email: string; origin: string; ttlSeconds: number }): Promise<SetupLink> {
    if (!OWNER_EMAIL.test(link.email)) throw new Refusal('--email must be one email address, such as ada@example.com.');
    return this.store.change(this.actor, 'setup-link', { merchantId, subject: link.email }, async (tx) => {
      if (!(await this.store.merchant(tx, merchantId))) throw new Refusal(`No merchant ${merchantId}; merchants list shows them.`);
      const member = await tx.query('SELECT 1 FROM dashboard_members WHERE lower(email) = lower($1) AND removed_at IS NULL', [link.email]);
      if (member.rows.length > 0) throw new Refusal(`${link.email} is already a member of a team; they sign in with their password. An owner or admin changes roles in the dashboard.`);
      return createOwnerSetupLink(tx, { merchantId, email: link.email, createdBy: this.actor.actor, origin: link.origin, ttlSeconds: link.ttlSeconds, now: this.now() });
    });
  }

  /**
   * A new key beside `apiKey`, with exactly its roles; the old key is
   * refused after `expiresInSeconds` (0: at once), or stays until revoked
   * when no expiry is given. A key holding both four-eyes roles is rolled
   * only with `forceFourEyesOff`.
   */
  async rollKey(apiKey: string, options: { expiresInSeconds?: number; forceFourEyesOff?: boolean; createdByMember?: string }): Promise<NewCredential & { oldKeyExpiresAt: string | null; warning?: string }> {
    const { expiresInSeconds } = options;
    if (expiresInSeconds !== undefined && !(Number.isInteger(expiresInSeconds) && expiresInSeconds >= 0 && expiresInSeconds <= MAX_ROLL_EXPIRY_SECONDS)) {
      throw new Refusal(`--expires-in must be a whole number of seconds from 0 (at once) to ${MAX_ROLL_EXPIRY_SECONDS} (7 days).`);
    }
    const credential = this.newCredential();
    const now = this.now();
    const expiresAt = expiresInSeconds === undefined ? undefined : new Date(now.getTime() + expiresInSeconds * 1000);
    let warning: string | undefined;
    const rolled = await this.store.change(this.actor, 'roll-key', (done: { merchantId: string; oldKeyExpiresAt: string | null }) => ({ merchantId: done.merchantId, subject: apiKey, detail: { newKey: credential.apiKey, expiresAt: done.oldKeyExpiresAt } }), async (tx) => {
      const old = await this.activeKey(tx, apiKey);
      const roles = json(old.roles);
      const merchant = (await this.store.merchant(tx, old.merchant_id)) as MerchantRow;
      if (FOUR_EYES_ROLES.every((role) => roles.includes(role))) {
        if (!options.forceFourEyesOff) {
          throw new Refusal(
            `${apiKey} holds both payouts:create and payouts:approve: whoever holds it and a new key with its roles could create a payout with one and approve it with the other, four eyes in name only. Roll it anyway with --force-four-eyes-off and a short --expires-in, then ask for keys that hold one role each.`,
          );
        }
        warning = `Four eyes is off: ${credential.apiKey} holds payouts:create and payouts:approve, as ${apiKey} does. Let ${apiKey} expire as soon as clients use the new key.`;
      }
      await this.store.insertCredential(tx, old.merchant_id, { ...credential, roles }, now);
      if (options.createdByMember) await tx.query('UPDATE merchant_credentials SET created_by_member = $2 WHERE api_key = $1', [credential.apiKey, options.createdByMember]);
      // A test key works nowhere in production: rolled there, it ends at once rather than overlapping.
      const ends = this.mode === 'production' && apiKey.startsWith('pk_test_') ? now : expiresAt;
      if (ends) await tx.query('UPDATE merchant_credentials SET expires_at = $2 WHERE api_key = $1', [apiKey, ends.toISOString()]);
      return { merchantId: old.merchant_id, tenantId: merchant.tenant_id, roles, oldKeyExpiresAt: ends?.toISOString() ?? null };
    });
    return { ...rolled, ...credential, ...(warning ? { warning } : {}) };
  }

  /** A new key of an existing merchant, with `roles`; `createdByMember` is the dashboard member who asked, who may then not approve what it creates. */
  async addKey(merchantId: string, roles: readonly PayoutRole[], options: { createdByMember?: string } = {}): Promise<NewCredential> {
    if (FOUR_EYES_ROLES.every((role) => roles.includes(role))) throw new Refusal('A key may not hold both payouts:create and payouts:approve: whoever holds it could create a payout and approve it alone. Make one key for each.');
    const credential = this.newCredential();
    const now = this.now();
    return this.store.change(this.actor, 'add-key', { merchantId, subject: credential.apiKey, detail: { roles } }, async (tx) => {
      const merchant = await this.store.merchant(tx, merchantId);
      if (!merchant) throw new Refusal(`No merchant ${merchantId}; merchants list shows them.`);
      await this.store.insertCredential(tx, merchantId, { ...credential, roles }, now);
      if (options.createdByMember) await tx.query('UPDATE merchant_credentials SET created_by_member = $2 WHERE api_key = $1', [credential.apiKey, options.createdByMember]);
      return { merchantId, tenantId: merchant.tenant_id, ...credential, roles };
    });
  }

  /** Refused at once by every instance (within MERCHANTS_SYNC_MAX_LAG_MS). */
  async revokeKey(apiKey: string): Promise<{ apiKey: string; merchantId: string }> {
    return this.store.change(this.actor, 'revoke-key', (done: { merchantId: string }) => ({ merchantId: done.merchantId, subject: apiKey }), async (tx) => {
      const row = (await tx.query<CredentialRow>('SELECT * FROM merchant_credentials WHERE api_key = $1 FOR UPDATE', [apiKey])).rows[0];
      if (!row) throw new Refusal(`No key ${apiKey}; merchants show lists a merchant's keys.`);
      if (row.status === 'revoked') throw new Refusal(`${apiKey} is already revoked.`);
      await tx.query("UPDATE merchant_credentials SET status = 'revoked', revoked_at = $2 WHERE api_key = $1", [apiKey, this.now().toISOString()]);
      return { apiKey, merchantId: row.merchant_id };
    });
  }

  /** A suspended merchant's keys are refused everywhere and its checkout takes no payment; what is in flight goes on to its end. */
  async setStatus(merchantId: string, status: 'active' | 'suspended', reason: string | undefined): Promise<{ merchantId: string; status: string }> {
    return this.store.change(this.actor, status === 'suspended' ? 'suspend' : 'reinstate', { merchantId, detail: { reason: reason ?? null } }, async (tx) => {
      const merchant = await this.store.merchant(tx, merchantId, { forUpdate: true });
      if (!merchant) throw new Refusal(`No merchant ${merchantId}; merchants list shows them.`);
      if (merchant.status === status) throw new Refusal(`Merchant ${merchantId} is already ${status}.`);
      await tx.query('UPDATE merchants SET status = $2, updated_at = $3 WHERE merchant_id = $1', [merchantId, status, this.now().toISOString()]);
      return { merchantId, status };
    });
  }

  /**
   * The currencies the platform does not settle that the merchant may still
   * collect: its payins in them are taken, and the operator settles that
   * money by hand, outside the platform. An empty list takes every one away.
   */
  async setUnsettledCurrencies(merchantId: string, currencies: readonly string[]): Promise<{ merchantId: string; unsettledCurrencies: readonly string[] }> {
    const problem = unsettledCurrenciesProblem(currencies);
    if (problem) throw new Refusal(`--currencies ${problem}, comma-separated, or none.`);
    return this.store.change(this.actor, 'set-unsettled-currencies', { merchantId, detail: { unsettledCurrencies: currencies } }, async (tx) => {
      const merchant = await this.store.merchant(tx, merchantId, { forUpdate: true });
      if (!merchant) throw new Refusal(`No merchant ${merchantId}; merchants list shows them.`);
      const settings = currencies.length === 0 ? "settings - 'unsettledCurrencies'" : "jsonb_set(settings, '{unsettledCurrencies}', $3::jsonb)";
      const params = [merchantId, this.now().toISOString(), ...(currencies.length === 0 ? [] : [JSON.stringify(currencies)])];
      await tx.query(`UPDATE merchants SET settings = ${settings}, updated_at = $2 WHERE merchant_id = $1`, params);
      return { merchantId, unsettledCurrencies: currencies };
    });
  }

  async list(): Promise<Array<{ merchantId: string; tenantId: string; name: string; status: string; activeKeys: number; webhookEndpoints: number }>> {
    const { rows } = await this.store.client.query<MerchantRow & { active_keys: string | number; endpoints: string | number }>(
      `SELECT m.*,
              (SELECT count(*) FROM merchant_credentials c WHERE c.merchant_id = m.merchant_id AND c.status = 'active' AND (c.expires_at IS NULL OR c.expires_at > $1)) AS active_keys,
              (SELECT count(*) FROM webhook_endpoints e WHERE e.merchant_id = m.merchant_id AND e.status <> 'deleted') AS endpoints
         FROM merchants m ORDER BY m.merchant_id`,
      [this.now().toISOString()],
    );
    return rows.map((m) => ({ merchantId: m.merchant_id, tenantId: m.tenant_id, name: m.name, status: m.status, activeKeys: Number(m.active_keys), webhookEndpoints: Number(m.endpoints) }));
  }

  /** A merchant, its keys and endpoints: fingerprints, never a secret. */
  async show(merchantId: string): Promise<Record<string, unknown>> {
    const merchant = await this.store.merchant(this.store.client, merchantId);
    if (!merchant) throw new Refusal(`No merchant ${merchantId}; merchants list shows them.`);
    const now = this.now().getTime();
    const keys = (await this.store.credentialsOf(this.store.client, merchantId)).map(
      (c): KeyView => ({
        apiKey: c.api_key,
        roles: json(c.roles),
        status: c.status === 'revoked' ? 'revoked' : c.expires_at && toDate(c.expires_at).getTime() <= now ? 'expired' : 'active',
        secretFingerprint: fingerprintOf(this.store.keyring.open(c.secret_sealed, `merchant ${merchantId} credential ${c.api_key}`)),
        createdAt: toDate(c.created_at).toISOString(),
        expiresAt: c.expires_at ? toDate(c.expires_at).toISOString() : null,
        lastUsedAt: c.last_used_at ? toDate(c.last_used_at).toISOString() : null,
      }),
    );
    const endpoints = (
      await this.store.client.query<{ id: string; url: string; enabled_events: string[] | string; status: string; fingerprints: string[] | null }>(
        `SELECT e.id, e.url, e.enabled_events, e.status, array_agg(s.fingerprint ORDER BY s.created_at) FILTER (WHERE s.fingerprint IS NOT NULL) AS fingerprints
           FROM webhook_endpoints e LEFT JOIN webhook_endpoint_secrets s ON s.endpoint_id = e.id
          WHERE e.merchant_id = $1 AND e.status <> 'deleted' GROUP BY e.id ORDER BY min(e.created_at)`,
        [merchantId],
      )
    ).rows.map((e) => ({ id: e.id, url: e.url, enabledEvents: json(e.enabled_events), status: e.status, secretFingerprints: e.fingerprints ?? [] }));
    // The dashboard's team: who may sign in for the merchant, never a password or a factor's secret.
    const members = (
      await this.store.client.query<{ email: string; role: string; created_at: Date | string; passkeys: string | number; totp: boolean }>(
        `SELECT m.email, m.role, m.created_at, m.totp_secret_sealed IS NOT NULL AS totp, (SELECT count(*) FROM dashboard_passkeys p WHERE p.member_id = m.id) AS passkeys
           FROM dashboard_members m WHERE m.merchant_id = $1 AND m.removed_at IS NULL ORDER BY m.created_at`,
        [merchantId],
      )
    ).rows.map((m) => ({ email: m.email, role: m.role, totp: m.totp, passkeys: Number(m.passkeys), createdAt: toDate(m.created_at).toISOString() }));
    return {
      merchantId,
      tenantId: merchant.tenant_id,
      name: merchant.name,
      status: merchant.status,
      settings: json(merchant.settings),
      keys,
      webhookEndpoints: endpoints,
      members,
      notifySecretFingerprints: json(merchant.notify_secrets).map((s) => s.fingerprint),
      createdAt: toDate(merchant.created_at).toISOString(),
    };
  }

  async audit(options: { merchantId?: string; limit: number }): Promise<Array<Record<string, unknown>>> {
    const params: unknown[] = [options.limit];
    const where = options.merchantId ? `WHERE merchant_id = $${params.push(options.merchantId)}` : '';
    const { rows } = await this.store.client.query<{ id: string | number; at: Date | string; actor: string; channel: string; action: string; merchant_id: string | null; subject: string | null; detail: unknown }>(
      `SELECT * FROM (SELECT * FROM merchant_audit ${where} ORDER BY id DESC LIMIT $1) recent ORDER BY id`,
      params,
    );
    return rows.map((r) => ({ id: Number(r.id), at: toDate(r.at).toISOString(), actor: r.actor, channel: r.channel, action: r.action, merchantId: r.merchant_id, subject: r.subject, detail: json(r.detail) }));
  }

  private async activeKey(tx: Parameters<Parameters<MerchantStore['change']>[3]>[0], apiKey: string): Promise<CredentialRow> {
    const row = (await tx.query<CredentialRow>('SELECT * FROM merchant_credentials WHERE api_key = $1 FOR UPDATE', [apiKey])).rows[0];
    if (!row) throw new Refusal(`No key ${apiKey}; merchants show lists a merchant's keys.`);
    if (row.status === 'revoked' || (row.expires_at && toDate(row.expires_at).getTime() <= this.now().getTime())) throw new Refusal(`${apiKey} is revoked or expired; roll one of its merchant's active keys (merchants show lists them).`);
    return row;
  }

  /** A key ID and its secret: `pk_<live|test>_` and 24 hex digits; `sk_<live|test>_` and 43 characters of base64url (256 bits). */
  private newCredential(): { apiKey: string; secretKey: string } {
    const tag = this.mode === 'production' ? 'live' : 'test';
    return { apiKey: `pk_${tag}_${randomBytes(12).toString('hex')}`, secretKey: `sk_${tag}_${randomBytes(32).toString('base64url')}` };
  }
}

/** Reads --roles: a comma-separated list of roles. */
export function parseRolesOption(value: string): PayoutRole[] {
  const roles = value.split(',').map((role) => role.trim()).filter(Boolean);
  const unknown = roles.filter((role) => !(PAYOUT_ROLES as readonly string[]).includes(role));
  if (roles.length === 0 || unknown.length > 0 || new Set(roles).size !== roles.length) throw new Refusal(`--roles must be distinct roles from ${PAYOUT_ROLES.join(', ')}, comma-separated${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}.`);
  return roles as PayoutRole[];
}
