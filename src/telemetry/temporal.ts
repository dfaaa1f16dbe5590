import { context } from '@opentelemetry/api';
import type { ClientInterceptors } from '@temporalio/client';
import type { Context as ActivityContext } from '@temporalio/activity';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityInterceptorsFactory,
  Next,
} from '@temporalio/worker';
import { leadIdOfWorkflowId, leadWorkflowType } from '../temporal/contract';
import { leadTraceContext } from './lead-trace';
import { activeTracing } from './tracing';

/**
 * Temporal's share of the traces: client and activity interceptors of
 * `@temporalio/interceptors-opentelemetry`, never its workflow interceptor (its spans draw on
 * the workflow's random numbers: with queries, a replay then takes other ids, sdk-typescript
 * #2023). Without it no context travels in the headers of a workflow's activities, so a lead
 * workflow's activities join their lead's trace by the lead's id.
 */

/** Spans of workflow starts, messages and queries, with their context in the workflow's headers. */
export function clientTracingInterceptors(): ClientInterceptors | undefined {
  if (!activeTracing()) return undefined;
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}

/** A span per activity execution (the trace ids also in the SDK's activity log lines). */
export function activityTracingInterceptors(): ActivityInterceptorsFactory[] {
  if (!activeTracing()) return [];
  return [
    // First, so the context it sets is the one the span below starts in.
    (ctx) => ({ inbound: new LeadTraceActivityInterceptor(ctx) }),
    (ctx) => ({
      inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
      outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
    }),
  ];
}

/** A lead workflow's activity runs under its lead's production span (src/telemetry/lead-trace.ts). */
class LeadTraceActivityInterceptor implements ActivityInboundCallsInterceptor {
  constructor(private readonly ctx: ActivityContext) {}

  execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const { workflowType, workflowExecution } = this.ctx.info;
    const leadId =
      workflowType === leadWorkflowType && workflowExecution
        ? leadIdOfWorkflowId(workflowExecution.workflowId)
        : undefined;
    if (!leadId) return next(input);
    return context.with(leadTraceContext(leadId), () => next(input));
  }
}
