import type { VerifyFailure } from '@paysign/signing';
import type { ServiceMode } from '../config/app-config';
import { ApiException } from '../errors/api.exception';

/**
 * The answer to a failed check of libs/signing, which words the message; the
 * registry gives its status. Used by the pre-filter and by the signature check alike.
 */
export function verifyFailureException(result: VerifyFailure, mode: ServiceMode): ApiException {
  const detail = { detail: result.message };
  switch (result.code) {
    case 'AUTH_TIMESTAMP_SKEW':
      return new ApiException(result.code, detail, { serverTime: result.serverTime });
    case 'AUTH_SIGNATURE_MISMATCH':
      // The debug values hold no expected signature: see SigningDebugValues in libs/signing.
      return new ApiException(result.code, detail, mode === 'sandbox' ? { debug: boundedDebug(result.debug) } : {});
    default:
      return new ApiException(result.code, detail);
  }
}

/** Debug values longer than this are cut, so a large body cannot make the 401 large. */
export const DEBUG_VALUE_MAX_CHARS = 2048;

function boundedDebug(debug: Extract<VerifyFailure, { code: 'AUTH_SIGNATURE_MISMATCH' }>['debug']) {
  const cut = (text: string) => (text.length <= DEBUG_VALUE_MAX_CHARS ? text : `${text.slice(0, DEBUG_VALUE_MAX_CHARS)}… (${text.length - DEBUG_VALUE_MAX_CHARS} more characters)`);
  return { canonicalBody: cut(debug.canonicalBody), bodySha256Hex: debug.bodySha256Hex, baseString: cut(debug.baseString) };
}
