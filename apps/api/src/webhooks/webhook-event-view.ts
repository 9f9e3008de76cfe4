import type { EventDeliveryLog, WebhookEvent, WebhookEventType } from '@paysign/contracts';
import type { EventWithAttempts } from './sql-webhook-event.repository';

/** An event and its attempts as the contract shows them to the merchant debugging its receiver. */
export function webhookEventToContract(event: EventWithAttempts): EventDeliveryLog {
  return {
    id: event.id,
    type: event.type as WebhookEventType,
    reference: event.objectId,
    notifyUrl: event.notifyUrl,
    createdAt: event.createdAt.toISOString(),
    status: event.status,
    nextAttemptAt: event.status === 'pending' ? event.nextAttemptAt.toISOString() : null,
    attempts: event.attempts,
    payload: payloadOf(event),
  };
}

/** The body as sent. Events written before bodies carried `version` are shown with the version their row was given. */
function payloadOf(event: EventWithAttempts): WebhookEvent {
  const sent = JSON.parse(event.payload) as Record<string, unknown>;
  return { ...sent, version: sent.version ?? event.version } as WebhookEvent;
}
