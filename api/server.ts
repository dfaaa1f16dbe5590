import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
