import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';

// Traces (docs/operations.md, "Traces"): off unless OTEL_EXPORTER_OTLP_ENDPOINT names an OTLP/HTTP receiver. The
// exporter, the batch processor, the sampler and the resource read the other standard OTEL_* variables themselves.

/** Span attributes of our own. Ids only: never a token, an e-mail address, an ExternalId or a request body. */
export const TENANT_ID = 'sentinel.tenant_id';
export const USER_ID = 'sentinel.user_id';
/** Sentinel's id of an account (`acc_...`), as activities and the worker's logs name it. */
export const ACCOUNT_ID = 'sentinel.account_id';
/** The AWS account id, as the API's paths name it (`{account_id}`). */
export const AWS_ACCOUNT_ID = 'sentinel.aws_account_id';

export interface Tracing {
  /** Exports the spans still buffered and stops; the process is about to exit. */
  shutdown(): Promise<void>;
}

/** Where this process's spans go, once startTracing has turned tracing on. */
interface Pipeline {
  resource: Resource;
  processor: SpanProcessor;
}

let pipeline: Pipeline | undefined;

/**
 * Registers the process-wide tracer provider when OTEL_EXPORTER_OTLP_ENDPOINT is set (spans go to
 * `<endpoint>/v1/traces`, in batches); otherwise registers nothing, and every span anyone starts is a no-op.
 * Call it first, before the Temporal client, the worker or the app are built: they look at it.
 */
export function startTracing({ serviceName }: { serviceName: 'sentinel-api' | 'sentinel-worker' }): Tracing {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return { shutdown: async () => undefined };
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the default name.
  const resource = new Resource({ 'service.name': serviceName, ...envDetectorSync.detect().attributes });
  const processor = new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  pipeline = { resource, processor };
  return {
    shutdown: async () => {
      pipeline = undefined;
      await provider.shutdown();
    },
  };
}

/** Whether startTracing turned tracing on in this process. */
export function tracingOn(): boolean {
  return pipeline !== undefined;
}

/** The resource and span processor of this process while tracing is on; undefined when it is off. */
export function tracingPipeline(): Pipeline | undefined {
  return pipeline;
}

/**
 * The Temporal client's interceptors: with tracing on, each call (start, signal, update, query...) is a span whose
 * context travels to the workflow in the call's headers.
 */
export function temporalClientInterceptors(): ClientInterceptors {
  return pipeline ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : {};
}
