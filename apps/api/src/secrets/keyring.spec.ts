import { randomBytes } from 'node:crypto';
import { parseKeyring, SANDBOX_KEYRING } from '../config/keyring-config';
import { Keyring, SealedSecretError } from './keyring';

const keyText = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const keyringOf = (text: string): Keyring => {
  const problems: string[] = [];
  const keys = parseKeyring(text, problems);
  expect(problems).toEqual([]);
  return new Keyring(keys);
};

describe('the secrets keyring', () => {
  it('seals a secret that opens only for the row it was sealed for', () => {
    const keyring = keyringOf(keyText('k1'));
    const sealed = keyring.seal('sk_live_secret', 'merchant M credential pk_a');
    expect(sealed).not.toContain('sk_live_secret');
    expect(keyring.open(sealed, 'merchant M credential pk_a')).toBe('sk_live_secret');
    expect(() => keyring.open(sealed, 'merchant M credential pk_b')).toThrow(SealedSecretError);
    // Two seals of one secret differ: a fresh data key and nonces each time.
    expect(keyring.seal('sk_live_secret', 'merchant M credential pk_a')).not.toBe(sealed);
  });

  it('refuses a sealed value that was tampered with', () => {
    const keyring = keyringOf(keyText('k1'));
    const [version, id, wrapped, ciphertext] = keyring.seal('sk_live_secret', 'owner').split('.') as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, 'base64');
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 1;
    expect(() => keyring.open([version, id, wrapped, flipped.toString('base64')].join('.'), 'owner')).toThrow('does not open');
    expect(() => keyring.open('v1.k1.abc', 'owner')).toThrow('not in the v1 format');
  });

  it('rewraps under a new first key, and the old key can then leave the keyring', () => {
    const old = keyText('k1');
    const sealed = keyringOf(old).seal('sk_live_secret', 'owner');
    const next = keyText('k2');
    const both = keyringOf(`${next},${old}`);
    expect(both.open(sealed, 'owner')).toBe('sk_live_secret');
    const rewrapped = both.rewrap(sealed, 'owner');
    expect(Keyring.keyIdOf(rewrapped)).toBe('k2');
    // The secret's own ciphertext is unchanged: only its data key was wrapped again.
    expect(rewrapped.split('.')[3]).toBe(sealed.split('.')[3]);
    expect(keyringOf(next).open(rewrapped, 'owner')).toBe('sk_live_secret');
    expect(() => keyringOf(next).open(sealed, 'owner')).toThrow('which SECRETS_KEYRING no longer holds');
  });

  it.each([
    ['a key of 128 bits', `k1:${randomBytes(16).toString('base64')}`, 'must be the base64 of exactly 32 bytes (256 bits), got 128 bits'],
    ['no id', randomBytes(32).toString('base64'), 'entry 1 must be id:key'],
    ['an id twice', `${keyText('k1')},${keyText('k1')}`, 'names key id "k1" twice'],
    ['a key that is not base64', 'k1:not base64!', 'got 0 bits'],
  ])('refuses %s, never quoting a key', (_name, text, want) => {
    const problems: string[] = [];
    parseKeyring(text, problems);
    expect(problems.join('\n')).toContain(want);
    const key = text.split(':')[1];
    if (key && key.length > 8) expect(problems.join('\n')).not.toContain(key);
  });

  it('has a public sandbox keyring of one 256-bit key', () => {
    expect(keyringOf(SANDBOX_KEYRING).currentKeyId).toBe('sandbox');
  });
});
