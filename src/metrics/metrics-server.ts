import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningMetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` in Prometheus' text format on a port of its own, never on the public API's:
 * the figures say how busy each endpoint and vendor is, which is for operators only. Each
 * source adds its lines (the service's registry; in a worker, the Temporal SDK's own metrics).
 */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  sources: (() => Promise<string>)[];
}): Promise<RunningMetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    Promise.all(options.sources.map((source) => source())).then(
      (parts) => {
        res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
        res.end(parts.map((part) => (part.endsWith('\n') ? part : `${part}\n`)).join(''));
      },
      (err: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics unavailable: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The Temporal SDK's Prometheus endpoint (served by its Rust core on a loopback port), as text. */
export function sdkMetricsSource(bindAddress: string): () => Promise<string> {
  return async () => {
    const response = await fetch(`http://${bindAddress}/metrics`, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`the Temporal SDK's metrics answered ${response.status}`);
    return response.text();
  };
}

/**
 * The process's metrics listener when `METRICS_PORT` is set (with its Node.js figures), else
 * nothing. `extra`: more sources, such as the Temporal SDK's in a worker.
 */
export async function serveProcessMetrics(
  metrics: { collectProcessMetrics(): void; text(): Promise<string> },
  config: { METRICS_PORT?: number; METRICS_HOST: string },
  extra: (() => Promise<string>)[] = [],
): Promise<RunningMetricsServer | undefined> {
  if (config.METRICS_PORT === undefined) return undefined;
  metrics.collectProcessMetrics();
  return startMetricsServer({
    port: config.METRICS_PORT,
    host: config.METRICS_HOST,
    sources: [() => metrics.text(), ...extra],
  });
}
