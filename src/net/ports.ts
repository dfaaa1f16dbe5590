import net from 'node:net';

function listenOnce(port: number, host: string): Promise<number> {
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

/**
 * A free port in [low, high): for servers that store their port in a narrow column (the
 * Temporal server keeps membership ports as PostgreSQL smallint, so below 32768).
 */
export async function findFreePortBetween(low: number, high: number, host = '127.0.0.1'): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const candidate = low + Math.floor(Math.random() * (high - low));
    try {
      return await listenOnce(candidate, host);
    } catch {
      // Taken: try another.
    }
  }
  throw new Error(`no free port between ${low} and ${high} on ${host}`);
}

/**
 * Fails early, naming the port, when a fixed port is taken: usually a server left over by an
 * earlier run, whose own error message would be buried in its log.
 */
export async function assertPortFree(port: number, purpose: string, host = '127.0.0.1'): Promise<void> {
  try {
    await listenOnce(port, host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
    throw new Error(
      `${purpose} needs ${host}:${port}, but it is ${code === 'EACCES' ? 'not allowed' : 'in use'}` +
        ` (a server left over from an earlier run? see: ss -ltnp 'sport = :${port}')`,
    );
  }
}
