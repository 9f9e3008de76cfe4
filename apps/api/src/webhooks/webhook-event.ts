import { randomBytes } from 'node:crypto';
import type { PayinEvent, PayinEventType, WebhookEvent } from '@paysign/contracts';
import type { CheckoutLinks } from '../checkout/checkout-links';
import type { StoredPayin } from '../payins/payin-repository.interface';
import { isFinal } from '../payins/payin-states';
import { payinToContract } from '../payins/payin-view';

/** An event as the outbox stores it; `payload` is the exact body every attempt sends. */
export interface NewWebhookEvent {
  id: string;
  merchantId: string;
  reference: string;
  type: PayinEventType;
  payload: string;
  notifyUrl: string;
  createdAt: Date;
  nextAttemptAt: Date;
}

export interface StoredWebhookEvent extends NewWebhookEvent {
  status: WebhookEvent['status'];
  attemptCount: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
}

/** Event ids are the webhook-id: unique, and the same on every attempt. */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('base64url')}`;
}

/**
 * The outbox row for a payin that just became final, or undefined when it has
 * no notifyUrl. Built inside the transaction of the transition, so the event
 * exists exactly when the transition does.
 */
export function eventForFinalPayin(payin: StoredPayin, links: CheckoutLinks, firstAttemptDelayMs: number): NewWebhookEvent | undefined {
  if (!isFinal(payin.status) || payin.notifyUrl === null) return undefined;
  const occurredAt = payin.paidAt ?? payin.failedAt ?? new Date();
  const type = `payin.${payin.status.toLowerCase()}` as PayinEventType;
  const body = { type, timestamp: occurredAt.toISOString(), data: payinToContract(payin, links) } as PayinEvent;
  return {
    id: newEventId(),
    merchantId: payin.merchantId,
    reference: payin.reference,
    type,
    payload: JSON.stringify(body),
    notifyUrl: payin.notifyUrl,
    createdAt: occurredAt,
    nextAttemptAt: new Date(occurredAt.getTime() + firstAttemptDelayMs),
  };
}

/** Builds the outbox row of a payin that became final, if it has one: handed to the payin store's transitions. */
export type OutboxEventOf = (moved: StoredPayin) => NewWebhookEvent | undefined;

/** The rule of the outbox, shared by every path that makes a payin final: checkout, simulation, expiry. */
export class WebhookOutbox {
  constructor(
    private readonly links: CheckoutLinks,
    private readonly firstAttemptDelayMs: number,
  ) {}

  readonly eventOf: OutboxEventOf = (moved) => eventForFinalPayin(moved, this.links, this.firstAttemptDelayMs);
}
