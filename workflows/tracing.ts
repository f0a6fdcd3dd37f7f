// Types only: the modules themselves are required on first use (below).
// eslint-disable-next-line no-restricted-imports -- OpenTelemetry's API, not the service's api/ the rule keeps out.
import type * as OtelApiModule from '@opentelemetry/api';
import type * as OtelWorkflowModule from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type {
  Headers,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

type OtelWorkflow = typeof OtelWorkflowModule;
type OtelApi = typeof OtelApiModule;

/** Where the Temporal SDK's OpenTelemetry interceptors carry the span context (`TRACE_HEADER` of the package). */
const TRACE_HEADER = '_tracer-data';

/**
 * The workflow interceptors bundled with the workflows (worker/bundle.ts): the Temporal SDK's OpenTelemetry
 * interceptors, for what a traced caller asked. A run, signal, update or query is traced when its headers carry a
 * span context (the API sends one with tracing on); what the workflow does inside a traced one (activities, child
 * workflows, signals, continue-as-new) is traced with it. Everything else goes straight through, as if no
 * interceptor were there: no span, no header added to the history. The choice follows from the history, so replay
 * makes it again.
 *
 * The OpenTelemetry modules are loaded by the first traced call of a workflow, never before: the worker keeps
 * thousands of workflows in its cache, each with its own module state, and an untraced workflow must not pay for a
 * tracer, a context manager and the span SDK it never uses.
 */
export const interceptors = (): WorkflowInterceptors => {
  let otel:
    | {
        workflow: OtelWorkflow;
        api: OtelApi;
        inbound: InstanceType<OtelWorkflow['OpenTelemetryInboundInterceptor']>;
        outbound: InstanceType<OtelWorkflow['OpenTelemetryOutboundInterceptor']>;
      }
    | undefined;
  const traced = () => {
    if (!otel) {
      /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (see above) */
      const workflow = require('@temporalio/interceptors-opentelemetry/lib/workflow') as OtelWorkflow;
      const api = require('@opentelemetry/api') as OtelApi;
      /* eslint-enable @typescript-eslint/no-require-imports */
      otel = {
        workflow,
        api,
        inbound: new workflow.OpenTelemetryInboundInterceptor(),
        outbound: new workflow.OpenTelemetryOutboundInterceptor(),
      };
    }
    return otel;
  };
  const sent = (headers: Headers) => TRACE_HEADER in headers;
  // Nothing is in a span before the workflow's first traced call.
  const inSpan = () => otel !== undefined && otel.api.trace.getActiveSpan() !== undefined;

  const inbound: WorkflowInboundCallsInterceptor = {
    execute: (input, next) => (sent(input.headers) ? traced().inbound.execute(input, next) : next(input)),
    handleSignal: (input, next) => (sent(input.headers) ? traced().inbound.handleSignal(input, next) : next(input)),
    handleUpdate: (input, next) => (sent(input.headers) ? traced().inbound.handleUpdate(input, next) : next(input)),
    validateUpdate: (input, next) => (sent(input.headers) ? traced().inbound.validateUpdate(input, next) : next(input)),
    handleQuery: (input, next) => (sent(input.headers) ? traced().inbound.handleQuery(input, next) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => (inSpan() ? traced().outbound.scheduleActivity(input, next) : next(input)),
    scheduleLocalActivity: (input, next) =>
      inSpan() ? traced().outbound.scheduleLocalActivity(input, next) : next(input),
    startChildWorkflowExecution: (input, next) =>
      inSpan() ? traced().outbound.startChildWorkflowExecution(input, next) : next(input),
    signalWorkflow: (input, next) => (inSpan() ? traced().outbound.signalWorkflow(input, next) : next(input)),
    continueAsNew: (input, next) => (inSpan() ? traced().outbound.continueAsNew(input, next) : next(input)),
    // The workflow's log lines carry the trace and span ids.
    getLogAttributes: (input, next) => (inSpan() ? traced().outbound.getLogAttributes(input, next) : next(input)),
  };
  // The SDK's internals interceptor releases the tracing context when the workflow leaves the cache: only once traced.
  const internals: NonNullable<WorkflowInterceptors['internals']>[number] = {
    dispose: (input, next) =>
      otel ? new otel.workflow.OpenTelemetryInternalsInterceptor().dispose(input, next) : next(input),
  };
  return { inbound: [inbound], outbound: [outbound], internals: [internals] };
};
