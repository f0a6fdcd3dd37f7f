// eslint-disable-next-line no-restricted-imports -- OpenTelemetry's API, not the service's api/ the rule keeps out.
import { trace } from '@opentelemetry/api';
import { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import {
  OpenTelemetryInboundInterceptor, OpenTelemetryInternalsInterceptor, OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type { Headers, WorkflowInboundCallsInterceptor, WorkflowInterceptors, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';

/**
 * The workflow interceptors bundled with the workflows (worker/bundle.ts): the Temporal SDK's OpenTelemetry
 * interceptors, for what a traced caller asked. A run, signal, update or query is traced when its headers carry a
 * span context (the API sends one with tracing on); what the workflow does inside a traced one (activities, child
 * workflows, signals, continue-as-new) is traced with it. Everything else goes straight through, as if no
 * interceptor were there: no span, no header added to the history. The choice follows from the history, so replay
 * makes it again.
 */
export const interceptors = (): WorkflowInterceptors => {
  // Made on first use: they set a tracer up in the workflow's sandbox.
  let otel: { inbound: OpenTelemetryInboundInterceptor; outbound: OpenTelemetryOutboundInterceptor } | undefined;
  const traced = () => (otel ??= { inbound: new OpenTelemetryInboundInterceptor(), outbound: new OpenTelemetryOutboundInterceptor() });
  const sent = (headers: Headers) => TRACE_HEADER in headers;
  const inSpan = () => trace.getActiveSpan() !== undefined;

  const inbound: WorkflowInboundCallsInterceptor = {
    execute: (input, next) => (sent(input.headers) ? traced().inbound.execute(input, next) : next(input)),
    handleSignal: (input, next) => (sent(input.headers) ? traced().inbound.handleSignal(input, next) : next(input)),
    handleUpdate: (input, next) => (sent(input.headers) ? traced().inbound.handleUpdate(input, next) : next(input)),
    validateUpdate: (input, next) => (sent(input.headers) ? traced().inbound.validateUpdate(input, next) : next(input)),
    handleQuery: (input, next) => (sent(input.headers) ? traced().inbound.handleQuery(input, next) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => (inSpan() ? traced().outbound.scheduleActivity(input, next) : next(input)),
    scheduleLocalActivity: (input, next) => (inSpan() ? traced().outbound.scheduleLocalActivity(input, next) : next(input)),
    startChildWorkflowExecution: (input, next) => (inSpan() ? traced().outbound.startChildWorkflowExecution(input, next) : next(input)),
    signalWorkflow: (input, next) => (inSpan() ? traced().outbound.signalWorkflow(input, next) : next(input)),
    continueAsNew: (input, next) => (inSpan() ? traced().outbound.continueAsNew(input, next) : next(input)),
    // The workflow's log lines carry the trace and span ids.
    getLogAttributes: (input, next) => (inSpan() ? traced().outbound.getLogAttributes(input, next) : next(input)),
  };
  return { inbound: [inbound], outbound: [outbound], internals: [new OpenTelemetryInternalsInterceptor()] };
};
