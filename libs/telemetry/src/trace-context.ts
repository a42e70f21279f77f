import {
  context,
  ROOT_CONTEXT,
  SpanKind,
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

/**
 * Starts a span that the caller ends itself (a request that begins in one hook and ends in another) and the
 * context in which work belongs to it; `runInContext` makes that context active.
 */
export function startDetachedSpan(
  name: string,
  options: { attributes?: Attributes; parent?: Context; kind?: 'server' | 'producer' | 'consumer' },
): { span: Span; context: Context } {
  const tracer = trace.getTracer('voice-fleet');
  const parent = options.parent ?? context.active();
  const kinds = { server: SpanKind.SERVER, producer: SpanKind.PRODUCER, consumer: SpanKind.CONSUMER };
  const span = tracer.startSpan(
    name,
    {
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.kind ? { kind: kinds[options.kind] } : {}),
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `fn` with `ctx` active, so spans started inside (across awaits) become its children. */
export function runInContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}

/** Marks a span failed (a 5xx answer, a rejected promise handled elsewhere). */
export function markSpanFailed(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}
