import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { ServiceMode } from '../config/service-mode';
import type { SqlQueryable } from '../db/sql-client';
import { fingerprintOf } from './merchant-registry';
import { json, owners, type Actor, type CredentialRow, type EndpointSecretRow, type MerchantStore } from './merchant-store';
import { readMerchantsFile } from './merchants-file';
import { DEFAULT_ROLES } from './payout-approval';

/** What a merchants file holds besides identity, keys and webhook secrets: kept as written, read by the file's rules at each load. */
const SETTINGS_FIELDS = ['fees', 'payoutApproval', 'displayName', 'brandColor', 'logo', 'webhookOptInEvents', 'unsettledCurrencies'] as const;

/** What an import did, or would do with --dry-run: IDs and fingerprints only, never a secret. */
export interface ImportReport {
  file: string;
  digest: string;
  dryRun: boolean;
  changes: string[];
  unchanged: number;
}

type RawEntry = Record<string, unknown> & { merchantId: string; tenantId: string; name: string; credentials: Array<{ apiKey: string; secretKey: string; status?: 'active' | 'revoked'; roles?: string[] }>; webhookUrl?: string; webhookSecrets?: string[] };

/** The endpoint a file's webhookUrl becomes: the same id at every import of that merchant, so that a second import changes nothing. */
export const importedEndpointId = (merchantId: string): string => `we_${createHash('sha256').update(`merchants-file:${merchantId}`).digest('base64url').slice(0, 22)}`;

/**
 * Imports a merchants file (today's format, validated by today's rules in
 * `mode`) into the database, idempotently: merchants, keys and webhook
 * secrets that are missing are added, those that differ are changed, and
 * nothing the file does not name is removed. A file revokes a key but never
 * reactivates one, and never brings back an endpoint the merchant deleted. One transaction: all of it or
 * none. With `dryRun`, the same report and nothing written.
 */
export async function importMerchantsFile(store: MerchantStore, file: string, options: { mode: ServiceMode; actor: Actor; dryRun?: boolean; now: Date; onlyOnce?: boolean }): Promise<ImportReport & { skipped?: boolean }> {
  // The service's validator first: a refused file is refused whole, with every problem named.
  readMerchantsFile(file, { mode: options.mode });
  const text = fs.readFileSync(file, 'utf8');
  const digest = createHash('sha256').update(text).digest('hex');
  const raw = JSON.parse(text) as RawEntry[];
  const report: ImportReport = { file, digest, dryRun: options.dryRun === true, changes: [], unchanged: 0 };
  if (options.onlyOnce && (await store.client.query('SELECT 1 FROM merchants_file_imports WHERE digest = $1', [digest])).rows.length > 0) return { ...report, skipped: true };
  const apply = async (tx: SqlQueryable) => {
    if (options.onlyOnce) {
      const { rows } = await tx.query('INSERT INTO merchants_file_imports (digest, file, imported_at) VALUES ($1, $2, $3) ON CONFLICT (digest) DO NOTHING RETURNING digest', [digest, file, options.now.toISOString()]);
      // Another instance imported it meanwhile: rolled back, with no audit line and no version for every instance to load.
      if (rows.length === 0) throw new AlreadyImported();
    }
    for (const entry of raw) await importEntry(store, tx, entry, report, options.now);
    if (options.dryRun) throw new DryRunDone();
    return false;
  };
  try {
    const skipped = await store.change(options.actor, 'import', { subject: file, detail: { digest } }, apply);
    return { ...report, ...(skipped ? { skipped } : {}) };
  } catch (error) {
    if (error instanceof DryRunDone) return report;
    if (error instanceof AlreadyImported) return { ...report, skipped: true };
    throw error;
  }
}

/** Rolls the dry run's transaction back, report made. */
class DryRunDone extends Error {}

/** Rolls back an import another instance made first. */
class AlreadyImported extends Error {}

async function importEntry(store: MerchantStore, tx: SqlQueryable, entry: RawEntry, report: ImportReport, now: Date): Promise<void> {
  const { merchantId } = entry;
  const before = report.changes.length;
  const settings = Object.fromEntries(SETTINGS_FIELDS.filter((field) => entry[field] !== undefined).map((field) => [field, entry[field]]));
  const existing = await store.merchant(tx, merchantId, { forUpdate: true });
  const withoutEndpoint = entry.webhookUrl ? [] : (entry.webhookSecrets ?? []);
  if (!existing) {
    const notify = withoutEndpoint.map((secret) => store.sealNotifySecret(merchantId, secret));
    await tx.query("INSERT INTO merchants (merchant_id, tenant_id, name, status, settings, notify_secrets, created_at, updated_at) VALUES ($1, $2, $3, 'active', $4, $5, $6, $6)", [
      merchantId,
      entry.tenantId,
      entry.name,
      JSON.stringify(settings),
      JSON.stringify(notify),
      now.toISOString(),
    ]);
    report.changes.push(`added merchant ${merchantId}`);
  } else {
    const same = existing.tenant_id === entry.tenantId && existing.name === entry.name && stable(json(existing.settings)) === stable(settings);
    if (!same) {
      await tx.query('UPDATE merchants SET tenant_id = $2, name = $3, settings = $4, updated_at = $5 WHERE merchant_id = $1', [merchantId, entry.tenantId, entry.name, JSON.stringify(settings), now.toISOString()]);
      report.changes.push(`changed ${merchantId}'s name, tenant or settings`);
    }
    const held = json(existing.notify_secrets);
    const heldFingerprints = held.map((s) => s.fingerprint).sort().join(',');
    if (heldFingerprints !== withoutEndpoint.map(fingerprintOf).sort().join(',')) {
      await tx.query('UPDATE merchants SET notify_secrets = $2 WHERE merchant_id = $1', [merchantId, JSON.stringify(withoutEndpoint.map((secret) => store.sealNotifySecret(merchantId, secret)))]);
      report.changes.push(`replaced ${merchantId}'s webhook secrets for notifyUrl (now ${withoutEndpoint.map(fingerprintOf).join(', ') || 'none'})`);
    }
  }
  const keys = new Map((existing ? await store.credentialsOf(tx, merchantId) : []).map((row) => [row.api_key, row]));
  for (const credential of entry.credentials) await importCredential(store, tx, merchantId, credential, keys.get(credential.apiKey), report, now);
  if (entry.webhookUrl) await importEndpoint(store, tx, merchantId, entry.webhookUrl, entry.webhookSecrets ?? [], report, now);
  if (report.changes.length === before) report.unchanged += 1;
}

async function importCredential(store: MerchantStore, tx: SqlQueryable, merchantId: string, credential: RawEntry['credentials'][number], row: CredentialRow | undefined, report: ImportReport, now: Date): Promise<void> {
  const roles = credential.roles ?? [...DEFAULT_ROLES];
  const status = credential.status ?? 'active';
  if (!row) {
    const other = (await tx.query<{ merchant_id: string }>('SELECT merchant_id FROM merchant_credentials WHERE api_key = $1', [credential.apiKey])).rows[0];
    if (other) throw new Error(`key ${credential.apiKey} of ${merchantId} in the file is a key of ${other.merchant_id} in the database; an API key belongs to one merchant`);
    await store.insertCredential(tx, merchantId, { apiKey: credential.apiKey, secretKey: credential.secretKey, roles: roles as typeof DEFAULT_ROLES, status }, now);
    report.changes.push(`added key ${credential.apiKey} to ${merchantId}${status === 'revoked' ? ', revoked' : ''}`);
    return;
  }
  if (row.merchant_id !== merchantId) throw new Error(`key ${credential.apiKey} of ${merchantId} in the file is a key of ${row.merchant_id} in the database`);
  if (store.keyring.open(row.secret_sealed, owners.credential(merchantId, row.api_key)) !== credential.secretKey) {
    await tx.query('UPDATE merchant_credentials SET secret_sealed = $2 WHERE api_key = $1', [row.api_key, store.keyring.seal(credential.secretKey, owners.credential(merchantId, row.api_key))]);
    report.changes.push(`changed the secret of ${row.api_key}`);
  }
  if (stable(json(row.roles)) !== stable(roles)) {
    await tx.query('UPDATE merchant_credentials SET roles = $2 WHERE api_key = $1', [row.api_key, JSON.stringify(roles)]);
    report.changes.push(`changed the roles of ${row.api_key} to ${roles.join(', ')}`);
  }
  // A file revokes a key; it never brings one back that was revoked here (a leaked key stays refused whatever an old file says).
  if (row.status === 'active' && status === 'revoked') {
    await tx.query("UPDATE merchant_credentials SET status = 'revoked', revoked_at = $2 WHERE api_key = $1", [row.api_key, now.toISOString()]);
    report.changes.push(`revoked ${row.api_key}`);
  }
}

/** The file's webhookUrl and webhookSecrets, as the merchant's endpoint for every event; its secrets are the file's. */
async function importEndpoint(store: MerchantStore, tx: SqlQueryable, merchantId: string, url: string, secrets: readonly string[], report: ImportReport, now: Date): Promise<void> {
  const id = importedEndpointId(merchantId);
  const found = (await tx.query<{ url: string; status: string }>('SELECT url, status FROM webhook_endpoints WHERE id = $1', [id])).rows[0];
  if (!found) {
    await tx.query("INSERT INTO webhook_endpoints (id, merchant_id, url, enabled_events, description, status, created_at, updated_at) VALUES ($1, $2, $3, '[\"*\"]', 'From the merchants file', 'enabled', $4, $4)", [id, merchantId, url, now.toISOString()]);
    report.changes.push(`added webhook endpoint ${id} of ${merchantId} for ${url}`);
  } else if (found.status === 'deleted') {
    // Deleted by the merchant: a file never brings it back.
    return;
  } else if (found.url !== url) {
    await tx.query('UPDATE webhook_endpoints SET url = $2, updated_at = $3 WHERE id = $1', [id, url, now.toISOString()]);
    report.changes.push(`changed webhook endpoint ${id} of ${merchantId} to ${url}`);
  }
  const held = (await tx.query<EndpointSecretRow>('SELECT * FROM webhook_endpoint_secrets WHERE endpoint_id = $1', [id])).rows;
  const wanted = new Map(secrets.map((secret) => [fingerprintOf(secret), secret]));
  // Only the secrets an import made (ws_ and their fingerprint) follow the file; one the merchant rolled through the API stays.
  for (const row of held.filter((r) => r.secret_id === `ws_${r.fingerprint}` && !wanted.has(r.fingerprint))) {
    await tx.query('DELETE FROM webhook_endpoint_secrets WHERE endpoint_id = $1 AND secret_id = $2', [id, row.secret_id]);
    report.changes.push(`removed webhook secret ${row.fingerprint} of ${merchantId}`);
  }
  for (const [fingerprint, secret] of wanted) {
    if (held.some((r) => r.fingerprint === fingerprint)) continue;
    const secretId = `ws_${fingerprint}`;
    await tx.query('INSERT INTO webhook_endpoint_secrets (endpoint_id, secret_id, secret_sealed, fingerprint, created_at) VALUES ($1, $2, $3, $4, $5)', [
      id,
      secretId,
      store.keyring.seal(secret, owners.endpointSecret(merchantId, id, secretId)),
      fingerprint,
      now.toISOString(),
    ]);
    report.changes.push(`added webhook secret ${fingerprint} to ${merchantId}`);
  }
}

/** JSON with its keys sorted, to compare settings as values. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}
