import { ApiError } from './errors';

/** The body of a 2xx answer; an answer without a JSON body is an ApiError. */
export function expectData<T>(result: { data?: T; response: Response }): T {
  if (result.data === undefined) {
    throw new ApiError({ code: 'UNEXPECTED_RESPONSE', message: `The service answered HTTP ${result.response.status} without a JSON body.`, status: result.response.status });
  }
  return result.data;
}
