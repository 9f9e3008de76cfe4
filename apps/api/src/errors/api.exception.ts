import { HttpException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { StoreName } from '../stores/store-failure';
import { ERROR_REGISTRY, errorMessage, type ErrorCode, type ErrorMessageParams, type FieldError, type SigningDebug } from '@paysign/contracts';

export interface ApiErrorExtras {
  details?: FieldError[];
  serverTime?: number;
  debug?: SigningDebug;
  /** Sent as `success: false` by account enquiry failures. */
  enquiryFailure?: boolean;
}

/**
 * Every failure the service reports. The code's status, retryability and
 * message template come from the registry in libs/contracts; the caller gives
 * only the values its message names.
 */
export class ApiException<C extends ErrorCode = ErrorCode> extends HttpException {
  constructor(
    readonly code: C,
    readonly params: ErrorMessageParams<C>,
    readonly extras: ApiErrorExtras = {},
  ) {
    super(errorMessage(code, params), ERROR_REGISTRY[code].status);
  }

  get retryable(): boolean {
    return ERROR_REGISTRY[this.code].retryable;
  }
}

export function validationFailed(details: FieldError[]): ApiException {
  const problems = details.map((d) => d.message).join(' ');
  return new ApiException('VALIDATION_FAILED', { count: details.length, fieldOrFields: details.length === 1 ? 'field' : 'fields', problems }, { details });
}

export function storeUnavailable(store: StoreName): ApiException {
  return new ApiException('STORE_UNAVAILABLE', { store });
}

/** Who a 429 counted against, as the message and `paysign_rate_limited_total{source}` name it. */
export type RateLimitSource = 'API key' | 'address' | 'dashboard member';

/** 429 with its Retry-After header, which the SDK honours. */
export function rateLimited(reply: FastifyReply, limit: { source: RateLimitSource; limit: number; periodMs: number; retryAfterSeconds: number }): ApiException {
  const retryAfterSeconds = Math.max(1, Math.ceil(limit.retryAfterSeconds));
  void reply.header('Retry-After', String(retryAfterSeconds));
  reply.request.rateLimitedBy = limit.source;
  return new ApiException('RATE_LIMITED', { source: limit.source, limit: limit.limit, period: describePeriod(limit.periodMs), retryAfterSeconds });
}

function describePeriod(ms: number): string {
  if (ms === 1000) return 'second';
  if (ms === 60_000) return 'minute';
  return `${ms / 1000} seconds`;
}
