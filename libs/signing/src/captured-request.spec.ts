import { parseCapturedRequest } from './captured-request';

const HEAD = ['POST /payment/api/payins?x=1 HTTP/1.1', 'Host: localhost:3000', 'X-Nonce: n-1', 'X-Nonce: n-2', 'Content-Type: application/json'];

describe('parseCapturedRequest', () => {
  it.each<[string, { given: string[]; want: ReturnType<typeof parseCapturedRequest> }]>([
    [
      'a head with its request line, keeping a header sent twice',
      { given: HEAD, want: { method: 'POST', path: '/payment/api/payins?x=1', headers: { host: 'localhost:3000', 'x-nonce': ['n-1', 'n-2'], 'content-type': 'application/json' } } },
    ],
    ['header lines alone, with CRLF endings', { given: ['X-API-KEY: pk_1\r', 'x-timestamp: 1767225600\r'], want: { headers: { 'x-api-key': 'pk_1', 'x-timestamp': '1767225600' } } }],
    ['lines up to the first blank line after the head', { given: ['', 'GET /payment/health HTTP/1.1', 'A: 1', '', 'B: 2'], want: { method: 'GET', path: '/payment/health', headers: { a: '1' } } }],
    [
      'curl -v output, as printed',
      {
        given: [
          '*   Trying 127.0.0.1:3000...',
          '* Connected to localhost (127.0.0.1) port 3000',
          '> GET /payment/merchant-api/banks HTTP/1.1',
          '> Host: localhost:3000',
          '> X-API-KEY: pk_sandbox_demo',
          '> ',
          '< HTTP/1.1 200 OK',
          '< content-type: application/json; charset=utf-8',
          '{ [3246 bytes data]',
          '* Connection #0 to host localhost left intact',
        ],
        want: { method: 'GET', path: '/payment/merchant-api/banks', headers: { host: 'localhost:3000', 'x-api-key': 'pk_sandbox_demo' } },
      },
    ],
  ])('reads %s', (_name, { given, want }) => {
    expect(parseCapturedRequest(given)).toEqual(want);
  });

  it('refuses a line that is not a header, naming it', () => {
    expect(() => parseCapturedRequest(['POST /p HTTP/1.1', 'not a header'])).toThrow(expect.objectContaining({ code: 'INVALID_SIGNING_INPUT', message: 'Header line 2 is not "Name: value": "not a header".' }));
  });
});
