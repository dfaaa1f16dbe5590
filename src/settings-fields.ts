import { z } from 'zod';

/**
 * The shapes environment settings share (durations, booleans, optional text), apart from
 * src/config.ts so that each wing's settings (src/sources/<name>/settings.ts) and the tracing
 * entry point read them without loading the configuration's wings.
 */

/** `1s`, `30s`, `15m`, `1h` (and plain milliseconds) → milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms'] as number;
  return Number(match[1]) * unit;
}

export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));

/** Unset or empty (as compose files pass an unset variable): undefined. */
export const optionalText = z
  .string()
  .optional()
  .transform((v) => v || undefined);

export const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A duration setting (`6h`, `15m`) in milliseconds. */
export const duration = (fallback: string) => z.string().default(fallback).transform(parseDuration);

/**
 * Where spans go, OTLP over HTTP (`/v1/traces` is added); unset, tracing is off. Read on its own
 * too, before the rest, by the entry points' first import (src/telemetry/tracing.ts).
 */
export const otlpEndpoint = optionalText.pipe(z.url({ protocol: /^https?$/ }).optional());

/** `OTEL_EXPORTER_OTLP_ENDPOINT` alone, checked as loadConfig checks it; undefined when tracing is off. */
export function otlpEndpointFrom(env: NodeJS.ProcessEnv): string | undefined {
  const parsed = otlpEndpoint.safeParse(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (!parsed.success) {
    throw new Error(`invalid configuration: OTEL_EXPORTER_OTLP_ENDPOINT: ${parsed.error.issues[0]?.message}`);
  }
  return parsed.data;
}

/** The parsed values of a wing's settings (a function of whether this is production to its fields). */
export type SettingsOf<Fields extends (production: boolean) => z.ZodRawShape> = z.output<
  z.ZodObject<ReturnType<Fields>>
>;
