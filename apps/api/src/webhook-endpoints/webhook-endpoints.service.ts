import { Inject, Injectable, Optional } from '@nestjs/common';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from '@paysign/contracts';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import type { Caller } from '../http/caller';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { MerchantStore, type Actor } from '../merchants/merchant-store';
import { MerchantsSync } from '../merchants/merchants-sync';
import { EndpointRefused, WebhookEndpointStore, type EndpointChanges, type EndpointView } from './webhook-endpoint-store';

/**
 * The merchant's own channel for its webhook endpoints: each operation needs
 * a key holding `webhooks:manage`, is recorded in the merchants' audit trail
 * under that key, and is in force on this instance before it answers (on the
 * others within MERCHANTS_SYNC_MAX_LAG_MS).
 */
@Injectable()
export class WebhookEndpointsService {
  private readonly store: WebhookEndpointStore;

  constructor(
    merchantStore: MerchantStore,
    private readonly registry: MerchantRegistry,
    @Optional() @Inject(MerchantsSync) private readonly sync: MerchantsSync | null,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {
    this.store = new WebhookEndpointStore(merchantStore);
  }

  async list(caller: Caller): Promise<WebhookEndpoint[]> {
    this.mayManage(caller);
    return (await this.store.list(caller.merchantId, this.now())).map(endpointToContract);
  }

  async get(caller: Caller, id: string): Promise<WebhookEndpoint> {
    this.mayManage(caller);
    const found = await this.store.get(caller.merchantId, id, this.now());
    if (!found) throw new ApiException('WEBHOOK_ENDPOINT_NOT_FOUND', { id });
    return endpointToContract(found);
  }

  async create(caller: Caller, input: { url: string; enabledEvents: string[]; description: string | null; enabled: boolean }): Promise<WebhookEndpointWithSecret> {
    this.mayManage(caller);
    const made = await this.changed(caller, undefined, () => this.store.create(actorOf(caller), caller.merchantId, input, this.config.webhookEndpointsPerMerchant, this.now()));
    return { ...endpointToContract(made.endpoint), secret: made.secret };
  }

  async update(caller: Caller, id: string, changes: EndpointChanges): Promise<WebhookEndpoint> {
    this.mayManage(caller);
    return endpointToContract(await this.changed(caller, id, () => this.store.update(actorOf(caller), caller.merchantId, id, changes, this.now())));
  }

  async delete(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
    this.mayManage(caller);
    await this.changed(caller, id, () => this.store.delete(actorOf(caller), caller.merchantId, id, this.now()));
    return { id, deleted: true };
  }

  async rollSecret(caller: Caller, id: string, expiresInSeconds: number): Promise<WebhookEndpointWithSecret> {
    this.mayManage(caller);
    const rolled = await this.changed(caller, id, () => this.store.rollSecret(actorOf(caller), caller.merchantId, id, expiresInSeconds, this.now()));
    return { ...endpointToContract(rolled.endpoint), secret: rolled.secret };
  }

  private mayManage(caller: Caller): void {
    if (!this.registry.hasRole(caller.apiKey, 'webhooks:manage')) throw new ApiException('ROLE_REQUIRED', { apiKey: caller.apiKey, role: 'webhooks:manage' });
  }

  /** Runs a change, answers its refusal, and loads the merchants before answering, so that the next request here sees it. */
  private async changed<T>(caller: Caller, id: string | undefined, change: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await change();
    } catch (error) {
      if (!(error instanceof EndpointRefused)) throw error;
      const { refusal } = error;
      if (refusal.refused === 'not_found') throw new ApiException('WEBHOOK_ENDPOINT_NOT_FOUND', { id: id ?? '' });
      throw new ApiException('WEBHOOK_ENDPOINTS_LIMIT_REACHED', { merchantId: caller.merchantId, limit: refusal.limit });
    }
    await this.sync?.refresh('webhook endpoint changed');
    return result;
  }

  private now(): Date {
    return new Date(this.clock());
  }
}

/** Who made a change through the API: the key that signed it. */
const actorOf = (caller: Caller): Actor => ({ actor: caller.apiKey, channel: 'api' });

export function endpointToContract(endpoint: EndpointView): WebhookEndpoint {
  return {
    id: endpoint.id,
    url: endpoint.url,
    enabledEvents: endpoint.enabledEvents as WebhookEndpoint['enabledEvents'],
    description: endpoint.description,
    status: endpoint.status,
    // Newest first, as the contract lists them.
    secrets: [...endpoint.secrets].reverse().map((secret) => ({ fingerprint: secret.fingerprint, createdAt: secret.createdAt.toISOString(), expiresAt: secret.expiresAt?.toISOString() ?? null })),
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}
