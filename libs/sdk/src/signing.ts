// @paysign/sdk/signing: the protocol itself, for signing or checking a request without the client.
import * as core from '@paysign/signing';
import { SigningError } from './errors';

/** Runs a signing function, turning the core's errors into the SDK's SigningError, a PaymentError like every error the SDK throws. */
function asPaymentErrors<A extends unknown[], R>(run: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return run(...args);
    } catch (error) {
      if (error instanceof core.SigningError) throw new SigningError({ code: error.code, message: error.message, cause: error });
      throw error;
    }
  };
}

/**
 * Signs one request and returns the headers with every intermediate value.
 * @throws {SigningError} when the body cannot be signed or an input is outside its grammar.
 */
export const sign: typeof core.sign = asPaymentErrors(core.sign);

/**
 * Verifies a signed request as the service does; failures are results, not errors.
 * @throws {SigningError} only for inputs that are not a request at all.
 */
export const verify: typeof core.verify = asPaymentErrors(core.verify);

/**
 * The canonical body of the exact JSON text or bytes that will be sent.
 * @throws {SigningError} when the body is not a flat JSON object.
 */
export const canonicalBodyFromJson: typeof core.canonicalBodyFromJson = asPaymentErrors(core.canonicalBodyFromJson);

/**
 * The canonical body of a JavaScript object, as `JSON.stringify` would send it.
 * @throws {SigningError} when a value cannot be signed (nested, NaN, a bigint).
 */
export const canonicalBodyFromObject: typeof core.canonicalBodyFromObject = asPaymentErrors(core.canonicalBodyFromObject);

export type { SignInput, SignResult, VerifyInput, VerifyResult } from '@paysign/signing';
