import net from 'node:net';

/** Binds `port` on `host` and lets it go again, resolving to the port bound (the OS's pick for 0). */
export function listenOnce(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port that was free a moment ago. Another process may take it before the caller binds it;
 * that is acceptable for servers we start ourselves, which then fail with a clear message.
 */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return listenOnce(0, host);
}
