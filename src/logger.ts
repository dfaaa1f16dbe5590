import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import pino from 'pino';

const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  '*.apiKey',
  '*.webhookSecret',
  '*.accessToken',
  '*.refreshToken',
  'apiKey',
  'webhookSecret',
  'accessToken',
  'refreshToken',
  '*.token',
  '*.inviteUrl',
  'token',
  'inviteUrl',
];

/**
 * The trace and span a line was written in (tracing on: src/telemetry/tracing.ts), so a line
 * leads to its trace; a lead's trace id is the lead's id without dashes.
 */
function traceOfLine(): { traceId?: string; spanId?: string } {
  const span = trace.getSpan(context.active())?.spanContext();
  return span && isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : {};
}

/**
 * One structured JSON logger for every process. Fields that may carry credentials are
 * redacted by path so that a careless `log.info({ req })` never writes a key or secret.
 */
export function createLogger(
  level = process.env.LOG_LEVEL ?? 'info',
  name = 'intent-leads',
  destination?: pino.DestinationStream,
) {
  const options = { name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, mixin: traceOfLine };
  return destination ? pino(options, destination) : pino(options);
}

export type Logger = ReturnType<typeof createLogger>;
