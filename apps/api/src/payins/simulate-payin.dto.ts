import { SCHEMAS, type DeclineReason, type PayinChannel, type SimulatePayinRequest } from '@paysign/contracts';
import { IsDefined, IsIn, IsOptional } from 'class-validator';
import { DECLINE_REASONS } from './payin-states';
import type { PayinTransition } from './payin-states';

const OUTCOMES = SCHEMAS.SimulatePayinRequest.properties.outcome.enum;
export const SIMULATE_PAYIN_FIELDS = Object.keys(SCHEMAS.SimulatePayinRequest.properties) as ReadonlyArray<keyof SimulatePayinRequest>;

export class SimulatePayinDto implements SimulatePayinRequest {
  @IsIn(OUTCOMES, { message: `outcome must be one of ${OUTCOMES.join(', ')}.` })
  @IsDefined({ message: 'outcome is required.' })
  outcome!: SimulatePayinRequest['outcome'];

  @IsIn(DECLINE_REASONS, { message: `failureReason must be one of ${DECLINE_REASONS.join(', ')}.` })
  @IsOptional()
  failureReason?: DeclineReason;
}

/** A failureReason only means something for a failed or declined outcome; elsewhere it is refused rather than ignored. */
export function simulateFieldErrors(body: Record<string, unknown>) {
  if (body.failureReason === undefined || body.failureReason === null || body.outcome === 'failed' || body.outcome === 'declined') return [];
  return [{ field: 'failureReason', code: 'not_allowed', message: 'failureReason is allowed only with outcome failed or declined.' }];
}

/** The decline a `declined` simulation records on `channel`: the reason given, else a card's decline, or a transfer or USSD payment that did not arrive. */
export function declineOf(input: SimulatePayinDto, channel: PayinChannel): DeclineReason {
  return input.failureReason ?? (channel === 'card' ? 'card_declined' : 'transfer_not_received');
}

/** The final state of any outcome but `declined`, which records an attempt instead. */
export function transitionOf(input: SimulatePayinDto & { outcome: Exclude<SimulatePayinRequest['outcome'], 'declined'> }): PayinTransition {
  switch (input.outcome) {
    case 'successful':
      return { to: 'SUCCESSFUL' };
    case 'failed':
      return { to: 'FAILED', reason: input.failureReason ?? 'card_declined' };
    case 'abandoned':
      return { to: 'ABANDONED' };
    case 'cancelled':
      return { to: 'CANCELLED', by: 'customer' };
  }
}
