import { authenticator } from 'otplib';

/** RFC 6238's defaults, which every authenticator app reads: SHA-1, 6 digits, 30 s. */
const PERIOD_MS = 30_000;
/** A code of the step before or after now is accepted, for a phone's clock a little off. */
const WINDOW_STEPS = 1;
/** 160 bits, RFC 4226's recommendation for the shared secret. */
const SECRET_BYTES = 20;

export function newTotpSecret(): string {
  return authenticator.generateSecret(SECRET_BYTES);
}

export function totpUri(secret: string, account: { issuer: string; label: string }): string {
  return authenticator.keyuri(account.label, account.issuer, secret);
}

/**
 * The time step of `code` if it is valid at `nowMs` and later than
 * `lastStep`, the step of the code last accepted: a code is used once
 * (RFC 6238 section 5.2), so one seen over a shoulder cannot be replayed.
 */
export function acceptedTotpStep(secret: string, code: string, nowMs: number, lastStep: number | null): number | undefined {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  let delta: number | null;
  try {
    delta = authenticator.clone({ epoch: nowMs, window: WINDOW_STEPS }).checkDelta(code, secret);
  } catch {
    return undefined;
  }
  if (delta === null) return undefined;
  const step = Math.floor(nowMs / PERIOD_MS) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

/** The code an authenticator app shows at `nowMs`: for tests, and for nothing the service answers. */
export function totpCodeAt(secret: string, nowMs: number): string {
  return authenticator.clone({ epoch: nowMs }).generate(secret);
}
