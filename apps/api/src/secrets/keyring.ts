import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { KEYRING_KEY_BYTES as KEY_BYTES, type KeyringKey } from '../config/keyring-config';

/**
 * Envelope encryption of the secrets the service must keep in clear to use
 * (an HMAC verifier needs the key itself, so a hash will not do), as KMS
 * practice has it: each secret is encrypted with AES-256-GCM under a data
 * key of its own, and the data key is wrapped (AES-256-GCM again) by a
 * key-encryption key from SECRETS_KEYRING. Both carry the owner's identity
 * (the merchant and the credential or endpoint) as associated data, so a
 * ciphertext copied onto another row does not open. Rotating the
 * key-encryption key rewraps the data keys and leaves the secrets'
 * ciphertexts as they are.
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The format of a sealed secret; a later format would be v2. */
const VERSION = 'v1';

/** A sealed secret that does not open: the wrong row (its associated data), a key the keyring lacks, or a corrupt value. */
export class SealedSecretError extends Error {
  override readonly name = 'SealedSecretError';
}

export class Keyring {
  private readonly byId: ReadonlyMap<string, Buffer>;
  private readonly current: KeyringKey;

  constructor(keys: readonly KeyringKey[]) {
    const [first] = keys;
    if (!first) throw new Error('a keyring needs at least one key');
    this.current = first;
    this.byId = new Map(keys.map((key) => [key.id, key.key]));
  }

  /** The id of the key that encrypts: the first of SECRETS_KEYRING. */
  get currentKeyId(): string {
    return this.current.id;
  }

  /** `secret` encrypted under a new data key, wrapped by the current key; `owner` is its row's identity. */
  seal(secret: string, owner: string): string {
    const dataKey = randomBytes(KEY_BYTES);
    const ciphertext = encrypt(dataKey, Buffer.from(secret, 'utf8'), owner);
    return [VERSION, this.current.id, encrypt(this.current.key, dataKey, owner).toString('base64'), ciphertext.toString('base64')].join('.');
  }

  /** The secret of `sealed`, if it was sealed for `owner` under a key of this keyring. */
  open(sealed: string, owner: string): string {
    const { dataKey, ciphertext } = this.unwrap(sealed, owner);
    return decrypt(dataKey, ciphertext, owner, 'the secret').toString('utf8');
  }

  /** `sealed` with its data key wrapped by the current key instead; the secret's own ciphertext is unchanged. */
  rewrap(sealed: string, owner: string): string {
    const { dataKey, ciphertext } = this.unwrap(sealed, owner);
    // Opened once here, so that a rewrap never writes a value that would not open.
    decrypt(dataKey, ciphertext, owner, 'the secret');
    return [VERSION, this.current.id, encrypt(this.current.key, dataKey, owner).toString('base64'), ciphertext.toString('base64')].join('.');
  }

  /** The id of the key that wrapped `sealed`. */
  static keyIdOf(sealed: string): string | undefined {
    return sealed.split('.')[1];
  }

  private unwrap(sealed: string, owner: string): { dataKey: Buffer; ciphertext: Buffer } {
    const [version, keyId, wrapped, ciphertext, ...rest] = sealed.split('.');
    if (version !== VERSION || !keyId || !wrapped || !ciphertext || rest.length > 0) throw new SealedSecretError(`a sealed secret of ${owner} is not in the ${VERSION} format`);
    const key = this.byId.get(keyId);
    if (!key) throw new SealedSecretError(`a secret of ${owner} is wrapped by key "${keyId}", which SECRETS_KEYRING no longer holds; add it back after the first key until \`merchants rewrap\` has run`);
    return { dataKey: decrypt(key, Buffer.from(wrapped, 'base64'), owner, 'its data key'), ciphertext: Buffer.from(ciphertext, 'base64') };
  }
}

function encrypt(key: Buffer, plaintext: Buffer, owner: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(owner, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function decrypt(key: Buffer, sealed: Buffer, owner: string, what: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new SealedSecretError(`${what} of ${owner} is truncated`);
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(owner, 'utf8'));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    // GCM says only that the tag did not match: another row's value, another key, or a corrupt one.
    throw new SealedSecretError(`${what} of ${owner} does not open: it was sealed for another row or under another key, or is corrupt`);
  }
}
