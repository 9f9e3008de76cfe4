/**
 * SECRETS_KEYRING as the configuration reads it: the key-encryption keys
 * that seal the merchants' secrets at rest (secrets/keyring.ts), checked at
 * boot and never quoted.
 */

/** A key-encryption key of SECRETS_KEYRING: its id, stored beside what it wrapped, and its 256 bits. */
export interface KeyringKey {
  id: string;
  key: Buffer;
}

/** AES-256: 32 bytes. */
export const KEYRING_KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The rule SECRETS_KEYRING follows, as a refusal quotes it. */
export const KEYRING_RULE = `a comma-separated list of id:key, each id of 1 to 32 letters, digits, _ or -, and each key the base64 of 32 random bytes (256 bits), such as the output of openssl rand -base64 32; the first key encrypts, every key decrypts`;

/**
 * The keyring of the sandbox, when SECRETS_KEYRING is unset there: public,
 * since the sandbox's secrets are public too, and refused by production.
 */
export const SANDBOX_KEYRING = 'sandbox:c2FuZGJveC1zZWNyZXRzLWtleXJpbmctcHVibGljLTA=';

/** Reads SECRETS_KEYRING; each problem is pushed onto `problems`, and never quotes a key. */
export function parseKeyring(text: string, problems: string[], name = 'SECRETS_KEYRING'): KeyringKey[] {
  const keys: KeyringKey[] = [];
  const entries = text.split(',').map((entry) => entry.trim());
  entries.forEach((entry, i) => {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    const encoded = colon < 0 ? '' : entry.slice(colon + 1);
    if (!KEY_ID.test(id)) return void problems.push(`${name} entry ${i + 1} must be id:key; ${KEYRING_RULE}`);
    if (keys.some((key) => key.id === id)) return void problems.push(`${name} names key id "${id}" twice; each key needs an id of its own`);
    const key = /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (key.length !== KEYRING_KEY_BYTES) {
      return void problems.push(`${name} key "${id}" must be the base64 of exactly 32 bytes (256 bits), got ${key.length * 8} bits; use openssl rand -base64 32`);
    }
    keys.push({ id, key });
  });
  return keys;
}
