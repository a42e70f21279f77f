import { trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export interface TracingHandle {
  tracer: Tracer;
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  service: string;
  /** OTLP export; off unless the standard OTEL_* variables configure it (the app's config decides). */
  otlpEnabled: boolean;
  /** Extra processors, e.g. an in-memory exporter in tests. */
  processors?: SpanProcessor[];
}

/** Registers a tracer provider for the process. Exporter endpoints come from the standard OTEL_* variables. */
export function startTracing({ service, otlpEnabled, processors = [] }: TracingOptions): TracingHandle {
  const all = [...processors];
  if (otlpEnabled) all.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: service }),
    spanProcessors: all,
  });
  provider.register();
  return { tracer: trace.getTracer(service), shutdown: () => provider.shutdown() };
}
