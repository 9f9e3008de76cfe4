import { randomBytes } from 'node:crypto';
import type { ServiceMode } from '../config/service-mode';
import { toDate, type SqlClient, type SqlQueryable } from '../db/sql-client';
import { Keyring, SealedSecretError } from '../secrets/keyring';
import type { Credential, MerchantStatus, WebhookEndpoint, WebhookSigningSecret } from './merchant';
import { fingerprintOf, type MerchantEntry } from './merchant-registry';
import { validateMerchants } from './merchants-file';
import type { PayoutRole } from './payout-approval';
import { memberIdentity } from './member-identity';

/** The channel a change is announced on, to every instance that listens (PostgreSQL LISTEN/NOTIFY). */
export const MERCHANTS_CHANNEL = 'paysign_merchants';

/** Who made a change, and through what: an operator's command, the merchant's API, a member in the dashboard, or the service's own import at boot. */
export interface Actor {
  actor: string;
  channel: 'command' | 'api' | 'boot' | 'dashboard';
  /** The client address of a dashboard member's request. */
  address?: string;
}

/** What an audit line names: the merchant, the key or endpoint, and details (never a secret). */
export interface AuditSubject {
  merchantId?: string;
  subject?: string;
  detail?: Record<string, unknown>;
}

/** A merchant's settings as a merchants file writes them, kept as written and read back by the file's own rules. */
export type MerchantSettingsJson = Record<string, unknown>;

export interface MerchantRow {
  merchant_id: string;
  tenant_id: string;
  name: string;
  status: MerchantStatus;
  settings: MerchantSettingsJson | string;
  notify_secrets: SealedNotifySecret[] | string;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface CredentialRow {
  api_key: string;
  merchant_id: string;
  secret_sealed: string;
  roles: PayoutRole[] | string;
  status: 'active' | 'revoked';
  created_at: Date | string;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  last_used_at: Date | string | null;
}

export interface EndpointRow {
  id: string;
  merchant_id: string;
  url: string;
  enabled_events: string[] | string;
  description: string | null;
  status: 'enabled' | 'disabled' | 'deleted';
  created_at: Date | string;
  updated_at: Date | string;
}

export interface EndpointSecretRow {
  endpoint_id: string;
  secret_id: string;
  secret_sealed: string;
  fingerprint: string;
  created_at: Date | string;
  expires_at: Date | string | null;
}

export interface SealedNotifySecret {
  id: string;
  sealed: string;
  fingerprint: string;
}

/** What a load put in force, and the merchants it had to leave out, each with why (never a secret). */
export interface LoadedMerchants {
  version: bigint;
  entries: MerchantEntry[];
  refused: Array<{ merchantId: string; reason: string }>;
}

/** jsonb comes back parsed from node-postgres, and as text from some PGlite paths. */
export const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
const optionalDate = (value: Date | string | null): Date | undefined => (value === null ? undefined : toDate(value));

/** The associated data of each sealed secret: the row it belongs to, so that a ciphertext copied to another row does not open. */
export const owners = {
  credential: (merchantId: string, apiKey: string) => `merchant ${merchantId} credential ${apiKey}`,
  endpointSecret: (merchantId: string, endpointId: string, secretId: string) => `merchant ${merchantId} webhook endpoint ${endpointId} secret ${secretId}`,
  notifySecret: (merchantId: string, secretId: string) => `merchant ${merchantId} notify secret ${secretId}`,
  /** A dashboard member's TOTP secret, confirmed or waiting to be. */
  memberTotp: (memberId: string) => `dashboard member ${memberId} totp`,
};

/** A fresh id: a prefix and 22 characters of base64url (128 bits). */
export const newId = (prefix: string): string => `${prefix}${randomBytes(16).toString('base64url')}`;

/**
 * The merchants in the database: reading them all into what the registry
 * holds, decrypting each secret with the keyring, and the one write every
 * change goes through (`change`), which records its audit line, bumps the
 * version every instance watches, and announces it, in its transaction.
 */
export class MerchantStore {
  constructor(
    readonly client: SqlClient,
    readonly keyring: Keyring,
    private readonly mode: ServiceMode,
  ) {}

  /** The version of the merchants: one more at each committed change. */
  async version(): Promise<bigint> {
    const { rows } = await this.client.query<{ version: string | number }>('SELECT version FROM merchants_version');
    return BigInt(rows[0]?.version ?? 0);
  }

  /**
   * Every merchant with its keys and endpoints, secrets opened. A merchant
   * whose row does not open or no longer passes the rules of this mode is
   * left out, and named in `refused`; the others load.
   */
  async loadAll(): Promise<LoadedMerchants> {
    return this.client.transaction(async (tx) => {
      // One snapshot: the version read is the version of the rows read.
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      const version = BigInt((await tx.query<{ version: string | number }>('SELECT version FROM merchants_version')).rows[0]?.version ?? 0);
      const merchants = (await tx.query<MerchantRow>('SELECT * FROM merchants ORDER BY merchant_id')).rows;
      const credentials = (await tx.query<CredentialRow>('SELECT * FROM merchant_credentials ORDER BY created_at, api_key')).rows;
      const endpoints = (await tx.query<EndpointRow>("SELECT * FROM webhook_endpoints WHERE status <> 'deleted' ORDER BY created_at, id")).rows;
      const secrets = (await tx.query<EndpointSecretRow>('SELECT * FROM webhook_endpoint_secrets ORDER BY created_at, secret_id')).rows;
      const entries: MerchantEntry[] = [];
      const refused: LoadedMerchants['refused'] = [];
      for (const merchant of merchants) {
        try {
          entries.push(this.entryOf(merchant, credentials, endpoints, secrets));
        } catch (error) {
          refused.push({ merchantId: merchant.merchant_id, reason: (error as Error).message });
        }
      }
      return { version, entries, refused };
    });
  }

  /** One merchant as the registry holds it; throws for a secret that does not open or settings this mode refuses. */
  private entryOf(merchant: MerchantRow, credentials: CredentialRow[], endpoints: EndpointRow[], secrets: EndpointSecretRow[]): MerchantEntry {
    const merchantId = merchant.merchant_id;
    const own = credentials.filter((c) => c.merchant_id === merchantId);
    const notifySecrets = json(merchant.notify_secrets).map((s) => this.keyring.open(s.sealed, owners.notifySecret(merchantId, s.id)));
    // The file's own rules, as the import checked them: the settings, the keys' form and strength in this mode.
    const fileShaped = {
      merchantId,
      tenantId: merchant.tenant_id,
      name: merchant.name,
      ...json(merchant.settings),
      ...(notifySecrets.length ? { webhookSecrets: notifySecrets } : {}),
      credentials: own.map((c) => ({ apiKey: c.api_key, secretKey: this.keyring.open(c.secret_sealed, owners.credential(merchantId, c.api_key)), status: c.status, roles: json(c.roles) })),
    };
    const [validated] = validateMerchants([fileShaped], 'the database', { mode: this.mode });
    if (!validated) throw new Error(`merchant ${merchantId} did not validate`);
    const expiry = new Map(own.map((c) => [c.api_key, optionalDate(c.expires_at)]));
    return {
      ...validated,
      status: merchant.status,
      credentials: validated.credentials.map((c): Credential => ({ ...c, ...(expiry.get(c.apiKey) ? { expiresAt: expiry.get(c.apiKey) } : {}) })),
      webhookEndpoints: endpoints.filter((e) => e.merchant_id === merchantId).map((e) => this.endpointOf(e, secrets.filter((s) => s.endpoint_id === e.id))),
    };
  }

  endpointOf(row: EndpointRow, secrets: EndpointSecretRow[]): WebhookEndpoint {
    return {
      id: row.id,
      url: row.url,
      enabledEvents: json(row.enabled_events),
      description: row.description,
      enabled: row.status === 'enabled',
      secrets: secrets.map(
        (s): WebhookSigningSecret => ({
          secret: this.keyring.open(s.secret_sealed, owners.endpointSecret(row.merchant_id, row.id, s.secret_id)),
          fingerprint: s.fingerprint,
          createdAt: toDate(s.created_at),
          ...(s.expires_at ? { expiresAt: toDate(s.expires_at) } : {}),
        }),
      ),
      createdAt: toDate(row.created_at),
      updatedAt: toDate(row.updated_at),
    };
  }

  /**
   * Runs one change in a transaction, with its audit line, and bumps the
   * version, so every instance loads it: at once where the announcement
   * reaches it, else at its next version check.
   */
  async change<T>(actor: Actor, action: string, about: AuditSubject | ((result: T) => AuditSubject), work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    return this.client.transaction(async (tx) => {
      const result = await work(tx);
      // What the change was about, once it is known: a key's merchant is read in the change's own transaction.
      const subject = typeof about === 'function' ? about(result) : about;
      await this.audit(tx, actor, action, subject);
      await tx.query('UPDATE merchants_version SET version = version + 1');
      await tx.query(`SELECT pg_notify('${MERCHANTS_CHANNEL}', '')`);
      return result;
    });
  }

  /** Records an action in the audit trail (`merchants audit`), on `tx` when it belongs to a change. */
  async audit(tx: SqlQueryable, actor: Actor, action: string, subject: AuditSubject): Promise<void> {
    await tx.query('INSERT INTO merchant_audit (at, actor, channel, action, merchant_id, subject, detail, address) VALUES (now(), $1, $2, $3, $4, $5, $6, $7)', [
      actor.actor,
      actor.channel,
      action,
      subject.merchantId ?? null,
      subject.subject ?? null,
      JSON.stringify(subject.detail ?? {}),
      actor.address ?? null,
    ]);
  }

  /** Writes when each key was last used, never moving a time backwards. */
  async recordLastUsed(used: ReadonlyMap<string, number>): Promise<void> {
    if (used.size === 0) return;
    const keys = [...used.keys()];
    const times = keys.map((key) => new Date(used.get(key) ?? 0).toISOString());
    await this.client.query(
      `UPDATE merchant_credentials c SET last_used_at = u.at
         FROM unnest($1::text[], $2::timestamptz[]) AS u(api_key, at)
        WHERE c.api_key = u.api_key AND (c.last_used_at IS NULL OR c.last_used_at < u.at)`,
      [keys, times],
    );
  }

  /**
   * The merchant's keys made (created or rolled) in the dashboard by the
   * person with this email, under any member id they had: a member removed
   * and invited again is still the person who made them (four eyes).
   */
  async keysMadeBy(merchantId: string, email: string): Promise<string[]> {
    const { rows } = await this.client.query<{ api_key: string }>(
      'SELECT c.api_key FROM merchant_credentials c JOIN dashboard_members m ON m.id = c.created_by_member WHERE c.merchant_id = $1 AND lower(m.email) = lower($2)',
      [merchantId, email],
    );
    return rows.map((row) => row.api_key);
  }

  /**
   * Every creator a member is (four eyes): the member themself, as
   * memberIdentity records them, and each key they made.
   */
  async identitiesOf(merchantId: string, email: string): Promise<string[]> {
    return [memberIdentity(email), ...(await this.keysMadeBy(merchantId, email))];
  }

  /**
   * The keys made in the dashboard by whoever made `apiKey` there, `apiKey`
   * included, and that person as a member (memberIdentity): all one
   * person's. Just `apiKey` when an operator made it.
   */
  async keysOfSameMaker(apiKey: string): Promise<string[]> {
    const { rows } = await this.client.query<{ api_key: string; email: string }>(
      `SELECT c.api_key, m.email FROM merchant_credentials c JOIN dashboard_members m ON m.id = c.created_by_member
        WHERE lower(m.email) = (SELECT lower(made.email) FROM merchant_credentials k JOIN dashboard_members made ON made.id = k.created_by_member WHERE k.api_key = $1)
          AND c.merchant_id = (SELECT merchant_id FROM merchant_credentials WHERE api_key = $1)`,
      [apiKey],
    );
    const maker = rows[0] === undefined ? [] : [memberIdentity(rows[0].email)];
    return [...new Set([apiKey, ...rows.map((row) => row.api_key), ...maker])];
  }

  /** A merchant's row, or undefined. */
  async merchant(tx: SqlQueryable, merchantId: string, options: { forUpdate?: boolean } = {}): Promise<MerchantRow | undefined> {
    return (await tx.query<MerchantRow>(`SELECT * FROM merchants WHERE merchant_id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [merchantId])).rows[0];
  }

  async credentialsOf(tx: SqlQueryable, merchantId: string): Promise<CredentialRow[]> {
    return (await tx.query<CredentialRow>('SELECT * FROM merchant_credentials WHERE merchant_id = $1 ORDER BY created_at, api_key', [merchantId])).rows;
  }

  /** Inserts a key, its secret sealed for its row. */
  async insertCredential(tx: SqlQueryable, merchantId: string, credential: { apiKey: string; secretKey: string; roles: readonly PayoutRole[]; status?: 'active' | 'revoked'; expiresAt?: Date }, now: Date): Promise<void> {
    await tx.query('INSERT INTO merchant_credentials (api_key, merchant_id, secret_sealed, roles, status, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      credential.apiKey,
      merchantId,
      this.keyring.seal(credential.secretKey, owners.credential(merchantId, credential.apiKey)),
      JSON.stringify(credential.roles),
      credential.status ?? 'active',
      now.toISOString(),
      credential.expiresAt?.toISOString() ?? null,
    ]);
  }

  /**
   * Every sealed secret wrapped again by the keyring's first key, in one
   * transaction; the secrets' own ciphertexts are unchanged, and each is
   * opened once before it is written. Returns how many were rewrapped.
   */
  async rewrap(actor: Actor): Promise<{ rewrapped: number; keyId: string }> {
    const keyId = this.keyring.currentKeyId;
    const rewrapped = await this.change(actor, 'rewrap', { detail: { keyId } }, async (tx) => {
      let count = 0;
      for (const c of (await tx.query<CredentialRow>('SELECT * FROM merchant_credentials FOR UPDATE')).rows) {
        await tx.query('UPDATE merchant_credentials SET secret_sealed = $2 WHERE api_key = $1', [c.api_key, this.keyring.rewrap(c.secret_sealed, owners.credential(c.merchant_id, c.api_key))]);
        count += 1;
      }
      const endpoints = new Map((await tx.query<{ id: string; merchant_id: string }>('SELECT id, merchant_id FROM webhook_endpoints')).rows.map((e) => [e.id, e.merchant_id]));
      for (const s of (await tx.query<EndpointSecretRow>('SELECT * FROM webhook_endpoint_secrets FOR UPDATE')).rows) {
        const owner = owners.endpointSecret(endpoints.get(s.endpoint_id) ?? '', s.endpoint_id, s.secret_id);
        await tx.query('UPDATE webhook_endpoint_secrets SET secret_sealed = $3 WHERE endpoint_id = $1 AND secret_id = $2', [s.endpoint_id, s.secret_id, this.keyring.rewrap(s.secret_sealed, owner)]);
        count += 1;
      }
      for (const m of (await tx.query<MerchantRow>("SELECT * FROM merchants WHERE notify_secrets <> '[]'::jsonb FOR UPDATE")).rows) {
        const secrets = json(m.notify_secrets).map((s) => ({ ...s, sealed: this.keyring.rewrap(s.sealed, owners.notifySecret(m.merchant_id, s.id)) }));
        await tx.query('UPDATE merchants SET notify_secrets = $2 WHERE merchant_id = $1', [m.merchant_id, JSON.stringify(secrets)]);
        count += secrets.length;
      }
      for (const m of (await tx.query<{ id: string; totp_secret_sealed: string | null; totp_pending_sealed: string | null }>('SELECT id, totp_secret_sealed, totp_pending_sealed FROM dashboard_members WHERE totp_secret_sealed IS NOT NULL OR totp_pending_sealed IS NOT NULL FOR UPDATE')).rows) {
        const rewrapped = (sealed: string | null) => (sealed === null ? null : this.keyring.rewrap(sealed, owners.memberTotp(m.id)));
        await tx.query('UPDATE dashboard_members SET totp_secret_sealed = $2, totp_pending_sealed = $3 WHERE id = $1', [m.id, rewrapped(m.totp_secret_sealed), rewrapped(m.totp_pending_sealed)]);
        count += (m.totp_secret_sealed === null ? 0 : 1) + (m.totp_pending_sealed === null ? 0 : 1);
      }
      return count;
    });
    return { rewrapped, keyId };
  }

  /** Seals a webhook secret for a merchant without an endpoint (its file's webhookSecrets). */
  sealNotifySecret(merchantId: string, secret: string): SealedNotifySecret {
    const id = newId('ns_');
    return { id, sealed: this.keyring.seal(secret, owners.notifySecret(merchantId, id)), fingerprint: fingerprintOf(secret) };
  }

  /** Opens a notify secret, for a comparison at import. */
  openNotifySecret(merchantId: string, secret: SealedNotifySecret): string {
    return this.keyring.open(secret.sealed, owners.notifySecret(merchantId, secret.id));
  }
}

export { SealedSecretError };
