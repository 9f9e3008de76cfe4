import { AuthenticationError, PaymentError, ValidationError, errorFromResponse } from './errors';

describe('error classes', () => {
  it('keep instanceof across two copies of the package', () => {
    let copy: typeof import('./errors') | undefined;
    jest.isolateModules(() => {
      copy = jest.requireActual<typeof import('./errors')>('./errors');
    });
    if (!copy) throw new Error('the second copy did not load');
    expect(copy.AuthenticationError).not.toBe(AuthenticationError);
    const fromCopy = new copy.AuthenticationError({ code: 'AUTH_SIGNATURE_MISMATCH', message: 'm' });
    expect(fromCopy).toBeInstanceOf(AuthenticationError);
    expect(fromCopy).toBeInstanceOf(PaymentError);
    expect(fromCopy).not.toBeInstanceOf(ValidationError);
    expect(new AuthenticationError({ code: 'X', message: 'm' })).toBeInstanceOf(copy.PaymentError);
  });

  it.each<[number, Record<string, unknown>, string]>([
    [401, { code: 'AUTH_NONCE_REPLAYED' }, 'AuthenticationError'],
    [400, { code: 'VALIDATION_FAILED', details: [] }, 'ValidationError'],
    [413, { code: 'BODY_TOO_LARGE' }, 'ValidationError'],
    [404, { code: 'PAYIN_NOT_FOUND' }, 'NotFoundError'],
    [409, { code: 'IDEMPOTENCY_CONFLICT' }, 'ConflictError'],
    [422, { success: false, code: 'ACCOUNT_DORMANT' }, 'AccountEnquiryError'],
    [429, {}, 'RateLimitError'],
    [503, { code: 'STORE_UNAVAILABLE' }, 'UpstreamUnavailableError'],
    [500, { code: 'INTERNAL_ERROR' }, 'ApiError'],
  ])('maps HTTP %s to its class', (status, body, name) => {
    expect(errorFromResponse(status, body, 'req-1').name).toBe(name);
  });

  it('is not fooled by plain objects', () => {
    expect({ code: 'X' }).not.toBeInstanceOf(PaymentError);
    expect(null).not.toBeInstanceOf(PaymentError);
  });
});
