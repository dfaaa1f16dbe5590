import { trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, RandomIdGenerator, type IdGenerator } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { otlpEndpointFrom } from '../settings-fields';

/** The ids a root span takes: random, unless code names them for one synchronous start (a lead's trace). */
class ChoosableIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private chosen: { traceId: string; spanId: string } | undefined;

  generateTraceId = (): string => this.chosen?.traceId ?? this.random.generateTraceId();
  generateSpanId = (): string => this.chosen?.spanId ?? this.random.generateSpanId();

  /** Spans started inside `start` (synchronously) get these ids. */
  with<T>(ids: { traceId: string; spanId: string }, start: () => T): T {
    this.chosen = ids;
    try {
      return start();
    } finally {
      this.chosen = undefined;
    }
  }
}

export interface Tracing {
  tracer: Tracer;
  /** Starts spans with the given ids (a lead's production span: its trace id is the lead's). */
  withIds<T>(ids: { traceId: string; spanId: string }, start: () => T): T;
  /** Sends what is still buffered; the process then ends. */
  shutdown(): Promise<void>;
}

let current: Tracing | undefined;

/** The process's tracing, or undefined while `OTEL_EXPORTER_OTLP_ENDPOINT` is unset. */
export function activeTracing(): Tracing | undefined {
  return current;
}

/**
 * Turns tracing on for this process when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: spans of the
 * API's requests, the Temporal client and activities (src/telemetry/temporal.ts), PostgreSQL
 * and outbound HTTP (node:http for webhooks and sources, undici for vendors), sent OTLP/HTTP
 * (JSON) in batches. Must run before `pg` is loaded and before `http` is used: the entry
 * points import it first (api/tracing.ts, worker/tracing.ts).
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (current) return current;
  const endpoint = otlpEndpointFrom(env);
  if (!endpoint) return undefined;
  const ids = new ChoosableIds();
  const provider = new NodeTracerProvider({
    // The version where npm started the process (npm start); a container names its image instead.
    resource: new Resource({
      'service.name': serviceName,
      ...(env.npm_package_version ? { 'service.version': env.npm_package_version } : {}),
    }),
    idGenerator: ids,
    // Batch size and delay follow OTEL_BSP_* (the SDK reads them).
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` })),
    ],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes are not requests anyone follows; an outgoing call outside any span is noise.
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)\b/.test(req.url ?? ''),
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Queries of a request, an activity or a delivery; the pool's own housekeeping stays out.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  current = {
    tracer: trace.getTracer('intent-leads'),
    withIds: (chosen, start) => ids.with(chosen, start),
    shutdown: () => provider.shutdown(),
  };
  return current;
}
