// Every non-2xx answer of the dashboard API carries the service's Error body;
// the UI shows its `message`, which says how to fix the problem.

export const FRESH_FACTOR_REQUIRED = 'DASHBOARD_FRESH_FACTOR_REQUIRED';
export const UNAUTHENTICATED = 'DASHBOARD_UNAUTHENTICATED';

/** A failed call: the Error body's fields, and the HTTP status it came with. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly retryable: boolean;

  constructor(options: { code: string; message: string; status: number; requestId?: string; retryable?: boolean }) {
    super(options.message);
    this.code = options.code;
    this.status = options.status;
    this.requestId = options.requestId;
    this.retryable = options.retryable ?? false;
  }
}

interface ErrorBody {
  code: string;
  message: string;
  requestId?: string;
  retryable?: boolean;
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.code === 'string' && typeof body.message === 'string';
}

/** The ApiError for a failed response, whether or not a proxy in between kept the service's body. */
export function apiErrorOf(body: unknown, response: Response): ApiError {
  if (isErrorBody(body)) {
    return new ApiError({ code: body.code, message: body.message, status: response.status, requestId: body.requestId, retryable: body.retryable });
  }
  return new ApiError({
    code: 'DASHBOARD_UNEXPECTED_RESPONSE',
    message: `The service answered ${response.status} ${response.statusText} without an explanation. Try again in a moment.`,
    status: response.status,
    retryable: response.status >= 500,
  });
}

/** What to show a person for any thrown value: the service's message, or a plain sentence. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out. Try again.';
  if (error instanceof TypeError) return 'The service could not be reached. Check your connection and try again.';
  if (error instanceof Error) return error.message;
  return 'Something went wrong. Try again.';
}
