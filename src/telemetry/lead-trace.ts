import { createHash } from 'node:crypto';
import {
  ROOT_CONTEXT,
  SpanKind,
  TraceFlags,
  trace,
  type Context,
  type Link,
  type SpanContext,
} from '@opentelemetry/api';
import type { ProducedLead } from '../temporal/contract';
import { activeTracing } from './tracing';

/**
 * A lead's trace: its id is the lead's id (its 32 hex digits), its root the lead's production
 * span, whose span id is derived from the lead's id too. Whatever works on the lead later (its
 * workflow's activities, on any worker, after any restart) finds both from the lead's id alone,
 * so no trace context has to travel through workflow code (docs/decisions/tracing.md).
 */
export function leadTraceId(leadId: string): string {
  const hex = leadId.replace(/-/g, '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) && !/^0+$/.test(hex) ? hex : digest(`trace:${leadId}`).slice(0, 32);
}

function productionSpanId(leadId: string): string {
  return digest(`production:${leadId}`).slice(0, 16);
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The lead's production span, as the parent of the spans of its workflow's activities. */
export function leadTraceContext(leadId: string): Context {
  const production: SpanContext = {
    traceId: leadTraceId(leadId),
    spanId: productionSpanId(leadId),
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  };
  return trace.setSpanContext(ROOT_CONTEXT, production);
}

/**
 * Records each lead of a production batch as the root span of its own trace, from the batch's
 * start to now, linked to the span the batch ran in (the production activity of the signal's
 * workflow run). Answers the leads with their trace id while tracing is on, as they were when off.
 */
export function recordLeadProduction(
  leads: ProducedLead[],
  batch: { signalId: string; startedAt: Date },
): ProducedLead[] {
  const tracing = activeTracing();
  if (!tracing) return leads;
  const run = trace.getActiveSpan()?.spanContext();
  const links: Link[] = run ? [{ context: run, attributes: { 'signal.id': batch.signalId } }] : [];
  return leads.map((lead) => {
    const traceId = leadTraceId(lead.leadId);
    const span = tracing.withIds({ traceId, spanId: productionSpanId(lead.leadId) }, () =>
      tracing.tracer.startSpan(
        'ProduceLead',
        {
          root: true,
          kind: SpanKind.INTERNAL,
          startTime: batch.startedAt,
          links,
          attributes: { 'lead.id': lead.leadId, 'signal.id': batch.signalId, 'lead.routes': lead.routes },
        },
        ROOT_CONTEXT,
      ),
    );
    span.end();
    return { ...lead, traceId };
  });
}
