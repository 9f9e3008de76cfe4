import { runPaysign } from './paysign';
import { shellQuote } from './curl-command';
import { createTestIo } from './testing-io';

describe('paysign curl', () => {
  it('prints a curl command with the signed headers and the exact body', async () => {
    const { io, out } = createTestIo({ env: { PAYSIGN_SECRET_KEY: 'sk_test_vectors_do_not_use' } });
    const code = await runPaysign(
      ['curl', '--base-url', 'http://127.0.0.1:3000/', '--api-key', 'pk_test_vectors', '--nonce', 'n-amount-trailing-zero', '--timestamp', '1767225600', '--method', 'post', '--path', '/payment/api/payins', '--body', '{"amount":1000.50,"currency":"NGN"}'],
      io,
    );
    expect(code).toBe(0);
    expect(out).toEqual([
      "curl -sS -X POST 'http://127.0.0.1:3000/payment/api/payins' -H 'X-API-KEY: pk_test_vectors' -H 'X-Nonce: n-amount-trailing-zero' -H 'X-Timestamp: 1767225600' " +
        "-H 'X-Signature: bae20512b2bf8f12961fe99c11dd5a2ab33657fe5e80453aaf1fbcfa50993143' -H 'Content-Type: application/json' --data-binary '{\"amount\":1000.50,\"currency\":\"NGN\"}'",
    ]);
  });

  it.each([
    ['plain', 'abc', "'abc'"],
    ['a single quote', "O'Brien", "'O'\\''Brien'"],
    ['shell syntax', '$(rm -rf /) `x` & ;', "'$(rm -rf /) `x` & ;'"],
  ])('quotes %s for the shell', (_name, given, want) => {
    expect(shellQuote(given)).toBe(want);
  });
});
