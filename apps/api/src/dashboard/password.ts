import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id`, a const enum the library declares ambiently. */
const ARGON2ID_ALGORITHM = 2;

/**
 * argon2id with the library's defaults, which are OWASP's recommendation:
 * 19 MiB of memory, 2 passes, one lane. Stated here so that a change of the
 * library's defaults changes nothing silently.
 */
const ARGON2ID = { algorithm: ARGON2ID_ALGORITHM, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The shortest password a member may set: NIST SP 800-63B asks at least 8; we ask 12. */
export const MIN_PASSWORD_LENGTH = 12;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

/**
 * Whether `password` matches `passwordHash`. With no hash (no such member),
 * a hash of a random password is checked all the same, so that an unknown
 * email costs what a wrong password does and the timing tells nothing.
 */
export async function passwordMatches(passwordHash: string | undefined, password: string): Promise<boolean> {
  const stored = passwordHash ?? (await unknownMemberHash());
  const matches = await verify(stored, password).catch(() => false);
  return passwordHash !== undefined && matches;
}

let decoy: Promise<string> | undefined;
function unknownMemberHash(): Promise<string> {
  decoy ??= hash(`decoy ${Math.random()} ${Date.now()}`, ARGON2ID);
  return decoy;
}
