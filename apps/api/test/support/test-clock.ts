/** A clock a test moves by hand: the service under test stamps, expires and leases by it, and no test sleeps for time to pass. */
export class TestClock {
  private ms: number;

  constructor(start = Date.now()) {
    this.ms = start;
  }

  readonly now = (): number => this.ms;

  advance(ms: number): void {
    this.ms += ms;
  }
}
