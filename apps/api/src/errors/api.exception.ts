import { HttpException } from '@nestjs/common';
import type { FieldError, SigningDebug } from '@paysign/contracts';
import { ERROR_CODES, type ErrorCode } from './error-codes';

export interface ApiErrorExtras {
  details?: FieldError[];
  serverTime?: number;
  debug?: SigningDebug;
  /** Sent as `success: false` by account enquiry failures. */
  enquiryFailure?: boolean;
}

/** Every failure the service reports: a registered code, its status, and a message that says how to fix it. */
export class ApiException extends HttpException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extras: ApiErrorExtras = {},
  ) {
    super(message, ERROR_CODES[code].status);
  }

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }
}

export function validationFailed(details: FieldError[]): ApiException {
  const summary = details.map((d) => d.message).join(' ');
  const noun = details.length === 1 ? 'field' : 'fields';
  return new ApiException('VALIDATION_FAILED', `The request has ${details.length} invalid ${noun}: ${summary}`, { details });
}

export function storeUnavailable(store: string): ApiException {
  return new ApiException('STORE_UNAVAILABLE', `The ${store} is unavailable, so the request was not admitted and nothing was recorded. Retry with backoff.`);
}
