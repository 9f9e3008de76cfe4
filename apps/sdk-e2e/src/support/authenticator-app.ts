import { totpCodeAt } from '@paysign/api/testing';
import type { RunningClock } from './running-clock';

/** RFC 6238's step, which the service and every authenticator app use. */
const STEP_MS = 30_000;

/**
 * A member's authenticator app. The service takes a code once per 30 s step
 * per member, and takes the step after now too (a phone's clock a little
 * ahead): each code given is for the first step not yet used, and the
 * service's clock moves on only when now and the next step are both spent.
 */
export class AuthenticatorApp {
  private lastStep = -1;

  constructor(
    readonly secret: string,
    private readonly clock: RunningClock,
  ) {}

  nextCode(): string {
    const now = Math.floor(this.clock.now() / STEP_MS);
    const step = Math.max(now, this.lastStep + 1);
    if (step > now + 1) this.clock.advance((step - now - 1) * STEP_MS);
    this.lastStep = step;
    return totpCodeAt(this.secret, step * STEP_MS + STEP_MS / 2);
  }
}
