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
    [503, { code: 'STORE_UNAVAILABLE' }, 'ServiceUnavailableError'],
    [500, { code: 'INTERNAL_ERROR' }, 'ApiError'],
  ])('maps HTTP %s to its class by the registry', (status, body, name) => {
    expect(errorFromResponse(status, body, 'req-1').name).toBe(name);
  });

  // Refunds add codes of known types, so they need no class of their own: each is classed as the payouts' codes of its type are.
  it.each<[string, { status: number; want: string }]>([
    ['REFUND_NOT_FOUND', { status: 404, want: 'NotFoundError' }],
    ['PAYIN_NOT_REFUNDABLE', { status: 409, want: 'ConflictError' }],
    ['REFUND_NOT_CANCELLABLE', { status: 409, want: 'ConflictError' }],
    ['REFUND_NOT_AWAITING_ACCOUNT', { status: 409, want: 'ConflictError' }],
    ['REFUND_TRANSITION_NOT_ALLOWED', { status: 409, want: 'ConflictError' }],
    ['REFUND_EXCEEDS_PAYIN', { status: 422, want: 'ValidationError' }],
    ['REFUND_WINDOW_CLOSED', { status: 422, want: 'ValidationError' }],
    ['REFUND_PROVIDER_NOT_CONFIGURED', { status: 422, want: 'ValidationError' }],
  ])('classes the refund code %s by its type', (code, { status, want }) => {
    expect(errorFromResponse(status, { code, message: 'm' }, 'req-1')).toMatchObject({ name: want, code, status, retryable: false });
  });

  it("keeps a refund refusal's details on the ValidationError", () => {
    const details = [{ field: 'amount', code: 'exceeds_payin', message: 'payin: 1500.50, refunded or in flight: 500.00, left: 1000.50' }];
    const error = errorFromResponse(422, { code: 'REFUND_EXCEEDS_PAYIN', message: 'm', details }, 'req-1');
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual(details);
  });

  it.each<[string, { status: number; body: unknown; want: { name: string; code: string; retryable: boolean } }]>([
    ['a code of a newer service, by its status', { status: 401, body: { code: 'AUTH_KEY_EXPIRED', message: 'm', retryable: false }, want: { name: 'AuthenticationError', code: 'AUTH_KEY_EXPIRED', retryable: false } }],
    ['a newer code that says it is retryable', { status: 409, body: { code: 'PAYIN_LOCKED', message: 'm', retryable: true }, want: { name: 'ConflictError', code: 'PAYIN_LOCKED', retryable: true } }],
    ["a proxy's 502 page", { status: 502, body: undefined, want: { name: 'ServiceUnavailableError', code: 'HTTP_502', retryable: true } }],
    ['a status no code has', { status: 418, body: undefined, want: { name: 'ApiError', code: 'HTTP_418', retryable: false } }],
  ])('classes %s', (_name, { status, body, want }) => {
    expect(errorFromResponse(status, body, 'req-1')).toMatchObject(want);
  });

  it('takes retryable from the registry when the body leaves it out', () => {
    expect(errorFromResponse(504, { code: 'UPSTREAM_TIMEOUT', message: 'm' }, undefined).retryable).toBe(true);
    expect(errorFromResponse(404, { code: 'PAYIN_NOT_FOUND', message: 'm' }, undefined).retryable).toBe(false);
  });

  it('throws SigningError, a PaymentError, for a request that cannot be signed', async () => {
    const [{ sign }, { SigningError: SdkSigningError }] = await Promise.all([import('./signing'), import('./index')]);
    const attempt = () => sign({ apiKey: 'pk', secretKey: 'sk', nonce: 'n', timestamp: 1, method: 'POST', path: '/payment/api/payins', body: '{"a":{"b":1}}' });
    expect(attempt).toThrow(SdkSigningError);
    expect(attempt).toThrow(PaymentError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'NESTED_VALUE', retryable: false }));
  });

  it('is not fooled by plain objects', () => {
    expect({ code: 'X' }).not.toBeInstanceOf(PaymentError);
    expect(null).not.toBeInstanceOf(PaymentError);
  });
});
