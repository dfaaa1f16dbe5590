import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A hostile (or just very slow) company site: every page trickles forever; robots.txt is missing (404). */
export interface SlowSite {
  origin: string;
  /** Paths asked, in order. */
  paths: string[];
  /** Page answers whose connection the client closed before the page ended (they never end by themselves). */
  closedByClient(): number;
  close(): Promise<void>;
}

/**
 * Answers 200 with an HTML head at once, then `bytesPerTick` bytes every `everyMs`, never
 * ending: below any idle time-out, and as slow as the test wants.
 */
export async function startSlowSite(pace: { bytesPerTick: number; everyMs: number }): Promise<SlowSite> {
  const paths: string[] = [];
  let closed = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '/');
    if (req.url === '/robots.txt') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><html><head><title>Slow');
    const timer = setInterval(() => res.write(' '.repeat(pace.bytesPerTick)), pace.everyMs);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
      if (!res.writableEnded) closed++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    paths,
    closedByClient: () => closed,
    close: () =>
      new Promise((resolve) => {
        timers.forEach(clearInterval);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
