import { randomBytes } from 'node:crypto';
import { toDate, type SqlQueryable } from '../db/sql-client';
import { fingerprintOf } from '../merchants/merchant-registry';
import { json, newId, owners, type Actor, type EndpointRow, type EndpointSecretRow, type MerchantStore } from '../merchants/merchant-store';

/** An endpoint as the merchant sees it: its secrets by fingerprint, never a secret. */
export interface EndpointView {
  id: string;
  url: string;
  enabledEvents: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  secrets: Array<{ fingerprint: string; createdAt: Date; expiresAt: Date | null }>;
  createdAt: Date;
  updatedAt: Date;
}

export interface EndpointChanges {
  url?: string;
  enabledEvents?: readonly string[];
  description?: string | null;
  enabled?: boolean;
}

/** Why a change was not made: the endpoint is not the merchant's, or the merchant holds as many as it may. */
export type EndpointRefusal = { refused: 'not_found' } | { refused: 'limit_reached'; limit: number };

/** A change refused, rolled back with nothing written, its audit line included. */
export class EndpointRefused extends Error {
  constructor(readonly refusal: EndpointRefusal) {
    super(refusal.refused);
  }
}

/** A new `whsec_` secret: the base64 of 32 random bytes. */
const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * A merchant's webhook endpoints in the database. Each change goes through
 * MerchantStore.change (its audit line, the version every instance
 * watches); secrets are sealed for their endpoint and shown once, at create
 * and at roll. Events already queued follow their endpoint: to its new URL
 * after a change, and not at all once it is deleted.
 */
export class WebhookEndpointStore {
  constructor(private readonly merchants: MerchantStore) {}

  async list(merchantId: string, now: Date): Promise<EndpointView[]> {
    const { rows } = await this.merchants.client.query<EndpointRow>("SELECT * FROM webhook_endpoints WHERE merchant_id = $1 AND status <> 'deleted' ORDER BY created_at, id", [merchantId]);
    const secrets = await this.secretsOf(this.merchants.client, rows.map((row) => row.id), now);
    return rows.map((row) => viewOf(row, secrets));
  }

  async get(merchantId: string, id: string, now: Date): Promise<EndpointView | undefined> {
    const row = await this.rowOf(this.merchants.client, merchantId, id);
    return row ? viewOf(row, await this.secretsOf(this.merchants.client, [id], now)) : undefined;
  }

  async create(actor: Actor, merchantId: string, input: { url: string; enabledEvents: readonly string[]; description: string | null; enabled: boolean }, limit: number, now: Date): Promise<{ endpoint: EndpointView; secret: string }> {
    const id = newId('we_');
    const secret = newWebhookSecret();
    return this.merchants.change(actor, 'webhook-endpoint.create', { merchantId, subject: id, detail: { url: input.url, enabledEvents: input.enabledEvents } }, async (tx) => {
      // The merchant's row, locked: two creates at once count each other.
      await tx.query('SELECT 1 FROM merchants WHERE merchant_id = $1 FOR UPDATE', [merchantId]);
      const held = Number((await tx.query<{ n: string | number }>("SELECT count(*) AS n FROM webhook_endpoints WHERE merchant_id = $1 AND status <> 'deleted'", [merchantId])).rows[0]?.n ?? 0);
      if (held >= limit) throw new EndpointRefused({ refused: 'limit_reached', limit });
      await tx.query('INSERT INTO webhook_endpoints (id, merchant_id, url, enabled_events, description, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)', [
        id,
        merchantId,
        input.url,
        JSON.stringify(input.enabledEvents),
        input.description,
        input.enabled ? 'enabled' : 'disabled',
        now.toISOString(),
      ]);
      await this.insertSecret(tx, merchantId, id, secret, now);
      const row = (await this.rowOf(tx, merchantId, id)) as EndpointRow;
      return { endpoint: viewOf(row, await this.secretsOf(tx, [id], now)), secret };
    });
  }

  async update(actor: Actor, merchantId: string, id: string, changes: EndpointChanges, now: Date): Promise<EndpointView> {
    return this.merchants.change(actor, 'webhook-endpoint.update', { merchantId, subject: id, detail: { ...changes } }, async (tx) => {
      const row = await this.rowOf(tx, merchantId, id, { forUpdate: true });
      if (!row) throw new EndpointRefused({ refused: 'not_found' });
      const status = changes.enabled === undefined ? row.status : changes.enabled ? 'enabled' : 'disabled';
      await tx.query('UPDATE webhook_endpoints SET url = $2, enabled_events = $3, description = $4, status = $5, updated_at = $6 WHERE id = $1', [
        id,
        changes.url ?? row.url,
        JSON.stringify(changes.enabledEvents ?? json(row.enabled_events)),
        changes.description === undefined ? row.description : changes.description,
        status,
        now.toISOString(),
      ]);
      // Events still queued for it go where it now points.
      if (changes.url !== undefined && changes.url !== row.url) await tx.query("UPDATE outbox_events SET notify_url = $2 WHERE endpoint_id = $1 AND status = 'pending'", [id, changes.url]);
      return viewOf((await this.rowOf(tx, merchantId, id)) as EndpointRow, await this.secretsOf(tx, [id], now));
    });
  }

  /** Deleted: it receives nothing more, and what was queued for it ends as failed. */
  async delete(actor: Actor, merchantId: string, id: string, now: Date): Promise<{ id: string }> {
    return this.merchants.change(actor, 'webhook-endpoint.delete', { merchantId, subject: id }, async (tx) => {
      const row = await this.rowOf(tx, merchantId, id, { forUpdate: true });
      if (!row) throw new EndpointRefused({ refused: 'not_found' });
      await tx.query("UPDATE webhook_endpoints SET status = 'deleted', updated_at = $2 WHERE id = $1", [id, now.toISOString()]);
      await tx.query("UPDATE outbox_events SET status = 'failed', locked_until = NULL WHERE endpoint_id = $1 AND status = 'pending'", [id]);
      return { id };
    });
  }

  /**
   * A new secret, shown once; the newest of the others signs beside it until
   * `expiresInSeconds` from now (0: it ends at once), and any older one ends
   * at once, so that at most two sign.
   */
  async rollSecret(actor: Actor, merchantId: string, id: string, expiresInSeconds: number, now: Date): Promise<{ endpoint: EndpointView; secret: string }> {
    const secret = newWebhookSecret();
    const previousEnds = new Date(now.getTime() + expiresInSeconds * 1000);
    return this.merchants.change(actor, 'webhook-endpoint.roll-secret', { merchantId, subject: id, detail: { expiresInSeconds, newFingerprint: fingerprintOf(secret) } }, async (tx) => {
      const row = await this.rowOf(tx, merchantId, id, { forUpdate: true });
      if (!row) throw new EndpointRefused({ refused: 'not_found' });
      const live = await this.secretsOf(tx, [id], now);
      const [newest, ...older] = [...(live.get(id) ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at));
      // Secrets past their end sign nothing: they go, as do the older ones the roll ends.
      await tx.query('DELETE FROM webhook_endpoint_secrets WHERE endpoint_id = $1 AND expires_at IS NOT NULL AND expires_at <= $2', [id, now.toISOString()]);
      for (const ended of older) await tx.query('DELETE FROM webhook_endpoint_secrets WHERE endpoint_id = $1 AND secret_id = $2', [id, ended.secret_id]);
      if (newest) {
        if (expiresInSeconds === 0) await tx.query('DELETE FROM webhook_endpoint_secrets WHERE endpoint_id = $1 AND secret_id = $2', [id, newest.secret_id]);
        else await tx.query('UPDATE webhook_endpoint_secrets SET expires_at = $3 WHERE endpoint_id = $1 AND secret_id = $2', [id, newest.secret_id, previousEnds.toISOString()]);
      }
      await this.insertSecret(tx, merchantId, id, secret, now);
      await tx.query('UPDATE webhook_endpoints SET updated_at = $2 WHERE id = $1', [id, now.toISOString()]);
      return { endpoint: viewOf((await this.rowOf(tx, merchantId, id)) as EndpointRow, await this.secretsOf(tx, [id], now)), secret };
    });
  }

  private async rowOf(tx: SqlQueryable, merchantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<EndpointRow | undefined> {
    const { rows } = await tx.query<EndpointRow>(`SELECT * FROM webhook_endpoints WHERE id = $1 AND merchant_id = $2 AND status <> 'deleted'${options.forUpdate ? ' FOR UPDATE' : ''}`, [id, merchantId]);
    return rows[0];
  }

  /** The secrets of the endpoints that still sign, oldest first, with their times as ISO text for ordering. */
  private async secretsOf(tx: SqlQueryable, ids: readonly string[], now: Date): Promise<Map<string, Array<EndpointSecretRow & { created_at: string }>>> {
    const bySecret = new Map<string, Array<EndpointSecretRow & { created_at: string }>>();
    if (ids.length === 0) return bySecret;
    const { rows } = await tx.query<EndpointSecretRow>('SELECT * FROM webhook_endpoint_secrets WHERE endpoint_id = ANY($1::text[]) AND (expires_at IS NULL OR expires_at > $2) ORDER BY created_at, secret_id', [[...ids], now.toISOString()]);
    for (const row of rows) bySecret.set(row.endpoint_id, [...(bySecret.get(row.endpoint_id) ?? []), { ...row, created_at: toDate(row.created_at).toISOString() }]);
    return bySecret;
  }

  private async insertSecret(tx: SqlQueryable, merchantId: string, endpointId: string, secret: string, now: Date): Promise<void> {
    const secretId = newId('ws_');
    await tx.query('INSERT INTO webhook_endpoint_secrets (endpoint_id, secret_id, secret_sealed, fingerprint, created_at) VALUES ($1, $2, $3, $4, $5)', [
      endpointId,
      secretId,
      this.merchants.keyring.seal(secret, owners.endpointSecret(merchantId, endpointId, secretId)),
      fingerprintOf(secret),
      now.toISOString(),
    ]);
  }
}

function viewOf(row: EndpointRow, secrets: Map<string, Array<EndpointSecretRow & { created_at: string }>>): EndpointView {
  return {
    id: row.id,
    url: row.url,
    enabledEvents: json(row.enabled_events),
    description: row.description,
    status: row.status === 'enabled' ? 'enabled' : 'disabled',
    secrets: (secrets.get(row.id) ?? []).map((s) => ({ fingerprint: s.fingerprint, createdAt: new Date(s.created_at), expiresAt: s.expires_at ? toDate(s.expires_at) : null })),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}
