import type { CreateWebhookEndpointRequest, DeletedWebhookEndpoint, EnabledWebhookEvents, RollWebhookEndpointSecretRequest, UpdateWebhookEndpointRequest, WebhookEndpoint, WebhookEndpointWithSecret, paths } from '@paysign/contracts';
import type { Client } from 'openapi-fetch';
import { expectData } from './expect-data';
import type { SignedTransport } from './signed-transport';

/**
 * The event types a webhook endpoint receives: the contract's types, or `'*'`
 * (or `['*']`, as the endpoint answers it) for every type, those added later
 * included. Sent as the contract's comma-separated `enabledEvents`, since a
 * signed body holds only flat fields.
 */
export type WebhookEventsInput = readonly EnabledWebhookEvents[number][] | '*';
/** A new webhook endpoint: `url`, `enabledEvents`, and optionally `description` and `enabled` (default `true`). */
export type CreateWebhookEndpointInput = Omit<CreateWebhookEndpointRequest, 'enabledEvents'> & { enabledEvents: WebhookEventsInput };
/** The fields of a webhook endpoint to change, at least one; `enabledEvents` replaces the whole list, and `description: ''` removes it. */
export type UpdateWebhookEndpointInput = Omit<UpdateWebhookEndpointRequest, 'enabledEvents'> & { enabledEvents?: WebhookEventsInput };

/** The namespace `client.webhookEndpoints`. */
export type WebhookEndpointsApi = ReturnType<typeof webhookEndpointsOf>;

/** The calls of `client.webhookEndpoints`, on the client's HTTP client and signed transport. */
export function webhookEndpointsOf(http: Client<paths>, transport: SignedTransport) {
  return {
    /**
     * Creates an endpoint. The answer holds its `secret`, which is shown only
     * here: store it for your receiver's `verifyWebhook` at once. Not
     * idempotent (there is no reference), so it is sent again only after a
     * refusal that did nothing, never after a timeout, a lost connection or a
     * 500: after one of those, `list()` says whether it was created.
     * @throws {ValidationError} VALIDATION_FAILED listing each invalid field in `details`: a `url` that is not https (outside the sandbox) or that webhooks are never sent to (`target`), an unknown event type.
     * @throws {ConflictError} with code WEBHOOK_ENDPOINTS_LIMIT_REACHED when you already have the most endpoints you may hold (16 by default); nothing was created.
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `webhooks:manage` role.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError | ApiError} as every method.
     */
    create: async (input: CreateWebhookEndpointInput): Promise<WebhookEndpointWithSecret> =>
      expectData(await http.POST('/payment/api/webhook-endpoints', { body: { ...input, enabledEvents: eventSelection(input.enabledEvents) }, fetch: transport.fetchNotIdempotent })),

    /**
     * All your endpoints, enabled or not, oldest first, without their secrets
     * (each secret's `fingerprint` tells which one you hold).
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `webhooks:manage` role.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    list: async (): Promise<WebhookEndpoint[]> => expectData(await http.GET('/payment/api/webhook-endpoints')).data,

    /**
     * Reads one of your endpoints by its id.
     * @throws {NotFoundError} with code WEBHOOK_ENDPOINT_NOT_FOUND when you have no endpoint with this id.
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `webhooks:manage` role.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    get: async (id: string): Promise<WebhookEndpoint> => expectData(await http.GET('/payment/api/webhook-endpoints/{id}', { params: { path: { id } } })),

    /**
     * Changes the fields given and keeps the others: `enabled: false` stops
     * new events for the endpoint (those already queued keep their
     * schedule), `enabledEvents` replaces the whole list.
     * @throws {ValidationError} VALIDATION_FAILED listing each invalid field in `details`, or none given.
     * @throws {NotFoundError} with code WEBHOOK_ENDPOINT_NOT_FOUND when you have no endpoint with this id.
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `webhooks:manage` role.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    update: async (id: string, patch: UpdateWebhookEndpointInput): Promise<WebhookEndpoint> => {
      const { enabledEvents, ...rest } = patch;
      const body = enabledEvents === undefined ? rest : { ...rest, enabledEvents: eventSelection(enabledEvents) };
      return expectData(await http.PATCH('/payment/api/webhook-endpoints/{id}', { params: { path: { id } }, body }));
    },

    /**
     * Deletes an endpoint: it receives nothing more, and its events not yet
     * delivered are not sent (they end `failed`, `endpoint deleted`).
     * @throws {NotFoundError} with code WEBHOOK_ENDPOINT_NOT_FOUND when you have no endpoint with this id, which is also the answer to a retry after an attempt that deleted it but whose answer was lost.
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `webhooks:manage` role.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError} as every method.
     */
    delete: async (id: string): Promise<DeletedWebhookEndpoint> => expectData(await http.DELETE('/payment/api/webhook-endpoints/{id}', { params: { path: { id } } })),

    /**
     * Gives the endpoint a new secret, in this answer only. The previous
     * secret keeps signing for `expiresIn` seconds (a day when left out, `0`
     * ends it at once), and every delivery meanwhile carries both signatures,
     * so move your receivers to the new secret within that time. An endpoint
     * has at most two live secrets: a second roll within that time ends the
     * oldest at once. Not idempotent, so it is sent again only after a
     * refusal that did nothing: after a timeout or a 500, `get(id)` shows by
     * the newest `fingerprint` whether the roll was made.
     * @throws {ValidationError} VALIDATION_FAILED for an `expiresIn` outside 0 to 604800 seconds.
     * @throws {NotFoundError} with code WEBHOOK_ENDPOINT_NOT_FOUND when you have no endpoint with this id.
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `webhooks:manage` role.
     * @throws {AuthenticationError | RateLimitError | ServiceUnavailableError | ConnectionError | TimeoutError | ApiError} as every method.
     */
    rollSecret: async (id: string, input: RollWebhookEndpointSecretRequest = {}): Promise<WebhookEndpointWithSecret> =>
      expectData(await http.POST('/payment/api/webhook-endpoints/{id}/roll-secret', { params: { path: { id } }, body: input, fetch: transport.fetchNotIdempotent })),
  };
}

/** The contract's form of a list of event types: separated by commas, or `*`. */
function eventSelection(events: WebhookEventsInput): string {
  return typeof events === 'string' ? events : events.join(',');
}
