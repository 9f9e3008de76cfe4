/**
 * The service's clock in a browser suite: real time, which the browser and the
 * service's timers keep, plus an offset the test moves forward to jump past a
 * window (a fresh factor, a TOTP step) without waiting for it.
 */
export class RunningClock {
  private offsetMs = 0;

  readonly now = (): number => Date.now() + this.offsetMs;

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
