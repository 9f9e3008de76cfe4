import { randomBytes } from 'node:crypto';

/**
 * An event as the outbox keeps it, for any kind of object: the feature that
 * changed the object writes it in the transaction of the change, so the event
 * exists exactly when the change does. `payload` is the exact body every
 * delivery attempt sends.
 */
export interface NewOutboxEvent {
  /** The webhook-id: unique, and the same on every attempt. */
  id: string;
  merchantId: string;
  /** `payin`, `payout`: what kind of object `objectId` names. */
  objectType: string;
  /** The object's own key within its merchant, such as a payin's reference. */
  objectId: string;
  /** `payin.successful`: the object type, a dot, what happened. */
  type: string;
  /** The object's version after this change, one more than before it; receivers ignore an event older than one they have. */
  version: number;
  payload: string;
  notifyUrl: string;
  /** The merchant's endpoint it goes to, whose secrets sign it; null: the object's own notifyUrl, signed as MerchantRegistry.signingSecretsOf says. */
  endpointId: string | null;
  createdAt: Date;
}

/** Where one event goes: a merchant's endpoint (its URL and id), or the object's own notifyUrl (no endpoint). */
export interface EventTarget {
  notifyUrl: string;
  endpointId?: string;
}

/** The body every event is sent as: what happened, to which version of the object, when, and the object itself. */
export interface EventEnvelope<Type extends string = string, Data = unknown> {
  type: Type;
  version: number;
  timestamp: string;
  data: Data;
}

/** Event ids are the webhook-id: unique, and the same on every attempt. */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('base64url')}`;
}
