import { HttpException, NotFoundException } from '@nestjs/common';
import type { ErrorBody } from '@paysign/contracts';
import { ApiException } from './api.exception';
import { ERROR_CODES } from './error-codes';

export interface ErrorResponse {
  status: number;
  body: ErrorBody & { success?: false };
}

/** Maps anything thrown while serving a request to the documented error body. */
export function toErrorResponse(error: unknown, requestId: string): ErrorResponse {
  const api = toApiException(error);
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
  return { status: ERROR_CODES[api.code].status, body };
}

function toApiException(error: unknown): ApiException {
  if (error instanceof ApiException) return error;
  if (error instanceof NotFoundException) {
    return new ApiException('ROUTE_NOT_FOUND', 'No operation at this method and path. Check the path against the API reference at /payment/docs; it includes the /payment prefix.');
  }
  const fastifyCode = (error as { code?: unknown } | null)?.code;
  switch (fastifyCode) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiException('BODY_TOO_LARGE', 'The request body is larger than 1048576 bytes. Send a smaller body.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiException('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json. Set the header and send a JSON object.');
    case 'FST_ERR_NOT_FOUND':
      return new ApiException('ROUTE_NOT_FOUND', 'No operation at this method and path. Check the path against the API reference at /payment/docs.');
  }
  const status = error instanceof HttpException ? error.getStatus() : (error as { statusCode?: unknown } | null)?.statusCode;
  if (status === 404) return new ApiException('ROUTE_NOT_FOUND', 'No operation at this method and path. Check the path against the API reference at /payment/docs.');
  if (status === 413) return new ApiException('BODY_TOO_LARGE', 'The request body is larger than 1048576 bytes. Send a smaller body.');
  if (status === 415) return new ApiException('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json. Set the header and send a JSON object.');
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiException('INVALID_JSON', 'The request could not be read. Send a JSON object with Content-Type: application/json.');
  }
  return new ApiException('INTERNAL_ERROR', 'The service failed to process the request. Retry with backoff; quote the requestId to support if it persists.');
}
