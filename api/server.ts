import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Services } from '../src/services';
import { createApp, type ApiApp } from './app';

export interface RunningApi extends ApiApp {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Listens on the given port (0 picks a free one) and reports its own address. */
export async function startApi(services: Services, port: number, host = '0.0.0.0'): Promise<RunningApi> {
  const api = await createApp(services);
  const server = createServer(api.app.callback());
  server.on('clientError', answerClientError);
  // Node answers any Expect but 100-continue with a bare 417 unless told otherwise.
  server.on('checkExpectation', (_req, res) => {
    const body = JSON.stringify({
      error: { code: 'INVALID_REQUEST', message: 'Only "Expect: 100-continue" is supported' },
    });
    res
      .writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) })
      .end(body);
  });
  // Keep-alive longer than typical load-balancer idle time, so they close first.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${address.port}`;
  return {
    ...api,
    server,
    url,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      // Sign-up mails go out after their answer: a stopping API still sends the ones it promised.
      await services.signUps.mailsHandedOff();
    },
  };
}

/**
 * Requests Node's HTTP parser refuses before Koa sees them (headers over 16 KB, malformed
 * HTTP) still get the error envelope: Node's own answer is a bare status line.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request headers (with the request line) are larger than 16 KB']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request was not received in time']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const body = JSON.stringify({ error: { code: 'INVALID_REQUEST', message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
