import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as OTLP/JSON carries it (ids in hex), with its service. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

/** OTLP's AnyValue as a plain value (string, number, bool, array). */
function plain(value: Record<string, unknown> | undefined): unknown {
  if (!value) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('arrayValue' in value)
    return ((value.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(plain);
  return value;
}

const attributesOf = (list: OtlpAttribute[] | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));

/**
 * A trace collector's OTLP/HTTP endpoint (`POST /v1/traces`, JSON encoding) as the
 * OpenTelemetry Collector serves it: decodes each export and keeps its spans.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        if (req.method !== 'POST' || req.url !== '/v1/traces') throw new Error(`${req.method} ${req.url}`);
        if (!String(req.headers['content-type']).startsWith('application/json')) {
          throw new Error(`content-type ${req.headers['content-type']}`);
        }
        let raw = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
        const body = JSON.parse(raw.toString('utf8'));
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
          for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
            for (const span of scopeSpans.spans ?? []) {
              spans.push({
                service,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
                links: (span.links ?? []).map(
                  (link: { traceId: string; spanId: string; attributes?: OtlpAttribute[] }) => ({
                    traceId: link.traceId,
                    spanId: link.spanId,
                    attributes: attributesOf(link.attributes),
                  }),
                ),
              });
            }
          }
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      } catch (err) {
        refused.push((err as Error).message);
        res.writeHead(400, { 'Content-Type': 'application/json' }).end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    /** Requests it could not decode (none expected). */
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;
