import { canonicalBodyFromJson } from './canonical-body';
import { sign } from './sign';
import { NOT_SIGNABLE_VECTORS, SIGNING_VECTORS } from './signing-vectors.fixture';
import { verify } from './verify';

describe('signing vectors', () => {
  it('cover every case the protocol names', () => {
    expect(SIGNING_VECTORS.map((v) => v.name)).toEqual(
      expect.arrayContaining([
        'get-without-body',
        'empty-object',
        'null-fields-omitted',
        'empty-string',
        'spaces-kept',
        'unicode-and-escapes',
        'key-order-utf16',
        'amount-1000.50',
        'amount-1000.5',
        'booleans',
        'query-string',
        'every-payin-field',
      ]),
    );
  });

  it.each(SIGNING_VECTORS.map((v) => [v.name, v] as const))('sign reproduces %s', (_name, { request, want }) => {
    const result = sign({ ...request, body: request.body ?? undefined });
    expect({
      canonicalBody: result.canonicalBody,
      bodySha256Hex: result.bodySha256Hex,
      baseString: result.baseString,
      signature: result.signature,
    }).toEqual(want);
    expect(result.headers['X-Signature']).toBe(want.signature);
  });

  it.each(SIGNING_VECTORS.map((v) => [v.name, v] as const))('verify accepts %s at the fixed clock', (_name, { request }) => {
    const signed = sign({ ...request, body: request.body ?? undefined, merchantId: 'MCH-1', tenantId: 'TEN-1' });
    const result = verify({
      method: request.method,
      path: request.path,
      headers: lowerCase({ ...signed.headers }),
      body: request.body === null ? undefined : Buffer.from(request.body, 'utf8'),
      now: request.timestamp,
      secretFor: (apiKey) => (apiKey === request.apiKey ? request.secretKey : undefined),
    });
    expect(result).toMatchObject({ ok: true });
  });

  it.each(NOT_SIGNABLE_VECTORS.map((v) => [v.name, v] as const))('refuses %s', (_name, { body, code }) => {
    expect(() => canonicalBodyFromJson(body)).toThrow(expect.objectContaining({ code }));
  });
});

function lowerCase(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
