import { HttpException } from '@nestjs/common';
import type { ErrorBody } from '@paysign/contracts';
import { StoreUnavailableError } from '../stores/store-failure';
import { ApiException, storeUnavailable } from './api.exception';

export interface ErrorResponse {
  status: number;
  body: ErrorBody & { success?: false };
}

/** Maps anything thrown while serving a request to the documented error body. */
export function toErrorResponse(error: unknown, requestId: string, bodyLimitBytes: number): ErrorResponse {
  const api = toApiException(error, bodyLimitBytes);
  const { details, serverTime, debug, enquiryFailure } = api.extras;
  const body: ErrorResponse['body'] = {
    ...(enquiryFailure ? { success: false as const } : {}),
    code: api.code,
    message: api.message,
    requestId,
    retryable: api.retryable,
    ...(details ? { details } : {}),
    ...(serverTime !== undefined ? { serverTime } : {}),
    ...(debug ? { debug } : {}),
  };
  return { status: api.getStatus(), body };
}

/** Our own failures pass through; the framework's (Nest's and Fastify's) are mapped by their HTTP status. */
function toApiException(error: unknown, bodyLimitBytes: number): ApiException {
  if (error instanceof ApiException) return error;
  if (error instanceof StoreUnavailableError) return storeUnavailable(error.store);
  const status = frameworkStatus(error);
  switch (status) {
    case 404:
      return new ApiException('ROUTE_NOT_FOUND', {});
    case 413:
      return new ApiException('BODY_TOO_LARGE', { limitBytes: bodyLimitBytes });
    case 415:
      return new ApiException('UNSUPPORTED_MEDIA_TYPE', {});
  }
  if (status !== undefined && status >= 400 && status < 500) return new ApiException('MALFORMED_REQUEST', {});
  return new ApiException('INTERNAL_ERROR', {});
}

function frameworkStatus(error: unknown): number | undefined {
  if (error instanceof HttpException) return error.getStatus();
  const { statusCode } = (error ?? {}) as { statusCode?: unknown };
  return typeof statusCode === 'number' ? statusCode : undefined;
}
