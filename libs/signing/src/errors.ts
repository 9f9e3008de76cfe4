/**
 * Every code a signing function can fail with. Body codes are answered with 400
 * by the server; the `AUTH_*` codes with 401.
 */
export const SIGNING_ERROR_CODES = [
  'INVALID_JSON',
  'INVALID_UTF8',
  'BODY_NOT_OBJECT',
  'NESTED_VALUE',
  'DUPLICATE_KEY',
  'TOO_MANY_FIELDS',
  'UNSUPPORTED_VALUE',
  'INVALID_SIGNING_INPUT',
] as const;

export type SigningErrorCode = (typeof SIGNING_ERROR_CODES)[number];

/** Codes of bodies that cannot be canonicalized. */
export type BodyErrorCode = Exclude<SigningErrorCode, 'INVALID_SIGNING_INPUT'>;

/** The one error class of this package: a stable `code` and a message that says how to fix it. */
export class SigningError extends Error {
  override readonly name = 'SigningError';

  constructor(
    readonly code: SigningErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Codes of raw request bodies that cannot be canonicalized; `UNSUPPORTED_VALUE` only arises from JS objects. */
export type RawBodyErrorCode = Exclude<BodyErrorCode, 'UNSUPPORTED_VALUE'>;

export function isBodyErrorCode(code: SigningErrorCode): code is BodyErrorCode {
  return code !== 'INVALID_SIGNING_INPUT';
}

export function isRawBodyErrorCode(code: SigningErrorCode): code is RawBodyErrorCode {
  return code !== 'INVALID_SIGNING_INPUT' && code !== 'UNSUPPORTED_VALUE';
}
