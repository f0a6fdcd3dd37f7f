import { trace } from '@opentelemetry/api';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  type OpenTelemetrySinks,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInboundCallsInterceptor, ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import { ACCOUNT_ID, TENANT_ID, tracingPipeline } from '../observability/tracing';

/**
 * The worker's side of traces (docs/operations.md, "Traces"). Each activity runs in a span, a child of the workflow's
 * when the workflow is traced (its context comes in the activity's headers). Workflows record their spans in the
 * sandbox (workflows/tracing.ts) and hand them to the `exporter` sink, which this process's span processor exports.
 * With tracing off here the sink drops them: an API with tracing on may still have started the workflow traced.
 */
export function workerTracing(): { activity: ActivityInterceptorsFactory[]; sinks: InjectedSinks<OpenTelemetrySinks> } {
  const pipeline = tracingPipeline();
  if (!pipeline) return { activity: [], sinks: DROP_WORKFLOW_SPANS };
  return {
    activity: [
      (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx) }),
      () => ({ inbound: activityIds }),
    ],
    sinks: { exporter: makeWorkflowExporter(pipeline.processor, pipeline.resource) },
  };
}

/** The `exporter` sink where workflow spans are not wanted (tracing off, replays). */
export const DROP_WORKFLOW_SPANS: InjectedSinks<OpenTelemetrySinks> = { exporter: { export: { fn: () => undefined } } };

// Runs inside the activity's span (the interceptor before it opened it): names the tenant and the account from the
// activity's input. Only those two ids: the rest of an input may hold a channel's address or a scan's findings.
const activityIds: ActivityInboundCallsInterceptor = {
  execute: (input, next) => {
    const [arg] = input.args;
    const span = trace.getActiveSpan();
    if (span && typeof arg === 'object' && arg !== null) {
      const { tenantId, accountId } = arg as { tenantId?: unknown; accountId?: unknown };
      if (typeof tenantId === 'string') span.setAttribute(TENANT_ID, tenantId);
      if (typeof accountId === 'string') span.setAttribute(ACCOUNT_ID, accountId);
    }
    return next(input);
  },
};
