import { parseResponse } from './raw-request';

const read = (text: string, context = { headRequest: false, closed: false }) => {
  const response = parseResponse(Buffer.from(text, 'latin1'), context);
  return response && { status: response.status, body: response.body.toString('latin1') };
};

describe('parseResponse, the raw client of the fuzz suite', () => {
  it.each<[string, { given: string; context?: { headRequest: boolean; closed: boolean }; want: { status: number; body: string } | undefined }]>([
    ['a body of Content-Length bytes', { given: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA', want: { status: 200, body: 'ok' } }],
    ['a body still arriving', { given: 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nok', want: undefined }],
    ['a chunked body', { given: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n1\r\n!\r\n0\r\n\r\n', want: { status: 200, body: 'ok!' } }],
    ['a final answer after 100 Continue', { given: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n', want: { status: 201, body: '' } }],
    ['the answer to a HEAD, whose Content-Length has no body', { given: 'HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n', context: { headRequest: true, closed: false }, want: { status: 200, body: '' } }],
    ['a body read until the connection closed', { given: 'HTTP/1.1 400 Bad Request\r\n\r\nend', context: { headRequest: false, closed: true }, want: { status: 400, body: 'end' } }],
  ])('reads %s', (_name, { given, context, want }) => {
    expect(read(given, context)).toEqual(want);
  });
});
