import { apiErrorOf } from './api-error';

/** What every openapi-fetch call resolves to, whatever its operation. */
export interface CallResult<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/** The call's data, or its ApiError thrown: react-query and forms deal in exceptions. */
export async function unwrap<D>(pending: Promise<CallResult<D>>): Promise<D> {
  const { data, error, response } = await pending;
  if (!response.ok) throw apiErrorOf(error, response);
  return data as D;
}
