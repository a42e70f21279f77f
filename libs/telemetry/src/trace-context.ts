import {
  context,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

// Trace context crosses process boundaries as a W3C `traceparent` string (in BullMQ job data, call rows and the
// broker's uplink wrapper): aedes speaks MQTT 3.1.1, which has no message properties to carry it.

const w3c = new W3CTraceContextPropagator();
const getter = {
  get: (carrier: Record<string, string>, key: string) => carrier[key],
  keys: (c: Record<string, string>) => Object.keys(c),
};
const setter = {
  set: (carrier: Record<string, string>, key: string, value: string) => (carrier[key] = value),
};

/** The context a `traceparent` describes (the root context when there is none or it is malformed). */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return w3c.extract(ROOT_CONTEXT, { traceparent }, getter);
}

/** The `traceparent` of the active span (undefined when nothing is being traced). */
export function currentTraceparent(ctx: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  w3c.inject(ctx, carrier, setter);
  return carrier['traceparent'];
}

/** A span link to another trace (e.g. the broker's uplink trace of a device reply). */
export function linkTo(traceparent: string | undefined): Link[] {
  if (!traceparent) return [];
  const spanContext = trace.getSpanContext(contextFromTraceparent(traceparent));
  return spanContext ? [{ context: spanContext }] : [];
}

/**
 * Runs `fn` in a span (a child of `parent` when given, else of the active context). The span ends with the
 * promise; a rejection is recorded on it.
 */
export async function inSpan<T>(
  name: string,
  options: { attributes?: Attributes; parent?: Context; links?: Link[] },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const tracer = trace.getTracer('voice-fleet');
  const parent = options.parent ?? context.active();
  return tracer.startActiveSpan(
    name,
    {
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.links ? { links: options.links } : {}),
    },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}
