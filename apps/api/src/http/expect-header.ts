import type { Server } from 'node:http';

/**
 * Node answers an Expect header naming anything but 100-continue with a bare
 * 417, outside the documented error body. RFC 9110 (section 10.1.1) lets a
 * server ignore an expectation it does not know, so such a request is served
 * as if the header were not there.
 */
export function ignoreUnknownExpectations(server: Server): void {
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
}
