import type { Clock } from '../config/clock';

/**
 * Where the instants that the service's workers store and compare come from:
 * leases, due times, expiry sweeps. The database's own `now()` in the
 * service, so that instances whose clocks differ by seconds still agree on
 * whose lease runs and what is due (as graphile-worker does); a test gives
 * its injected clock instead.
 */
export type StoreClock = 'database' | Clock;

/** Injection token of the StoreClock. */
export const StoreClock = Symbol('StoreClock');

/** The SQL for "now" under `clock`: `now()`, or a parameter, pushed onto `params`, holding the injected instant. */
export function sqlNow(clock: StoreClock, params: unknown[]): string {
  return clock === 'database' ? 'now()' : `$${params.push(new Date(clock()).toISOString())}::timestamptz`;
}

/** The SQL for an instant `ms` milliseconds after "now" under `clock`. */
export function sqlNowPlus(clock: StoreClock, params: unknown[], ms: number): string {
  return `(${sqlNow(clock, params)} + $${params.push(Math.round(ms))} * interval '1 millisecond')`;
}

/**
 * The instant, in the service, that stored times are compared with: the
 * store's clock when a test gives one, else the service's clock, which keeps
 * to the database's.
 */
export function storeInstant(storeClock: StoreClock, serviceClock: Clock): number {
  return typeof storeClock === 'function' ? storeClock() : serviceClock();
}
