import fc from 'fast-check';
import { isGuessableSecret } from './secret-strength';

/** Uniform bytes, as a generator makes them: without noBias, fast-check favours runs of small values, which no generator makes. */
const randomBytes = (minLength: number, maxLength = minLength) => fc.noBias(fc.uint8Array({ minLength, maxLength })).map((bytes) => Buffer.from(bytes));

describe('isGuessableSecret', () => {
  it.each<[string, { given: string; want: boolean }]>([
    ['32 × a', { given: 'a'.repeat(32), want: true }],
    ['a word repeated', { given: 'password-'.repeat(4), want: true }],
    ['two characters alternating, however long', { given: 'ab'.repeat(64), want: true }],
    ['nine different characters, however long', { given: 'abcdefghi'.repeat(8), want: true }],
    ['31 random-looking characters, one short', { given: 'q8Xr2LmZ7vKp4NwT1yHc6JdB9sFg3Ua', want: true }],
    ['32 random-looking characters', { given: 'q8Xr2LmZ7vKp4NwT1yHc6JdB9sFg3UaE', want: false }],
  ])('judges %s', (_name, { given, want }) => {
    expect(isGuessableSecret(given)).toBe(want);
  });

  it.each<[string, fc.Arbitrary<string>]>([
    ['openssl rand -hex 32', randomBytes(32).map((b) => b.toString('hex'))],
    ['openssl rand -base64 32', randomBytes(32).map((b) => b.toString('base64'))],
    ['the base64 of a whsec_ secret, 24 to 64 random bytes', randomBytes(24, 64).map((b) => b.toString('base64'))],
    ['32 random base64url characters', randomBytes(24).map((b) => b.toString('base64url'))],
  ])('accepts every secret made by %s', (_name, secrets) => {
    fc.assert(
      fc.property(secrets, (secret) => {
        expect(isGuessableSecret(secret)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });
});
