import { startTracing } from '../src/telemetry/tracing';

/** main.ts's first import: the instrumentation must be in place before `http` and `pg` are used. */
export const tracing = startTracing('intent-leads-api');
