import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  contextFromTraceparent,
  Counter,
  Histogram,
  markSpanFailed,
  runInContext,
  startDetachedSpan,
  type Registry,
  type Span,
} from '@fleet/telemetry';

/**
 * Every request is a server span (a child of the caller's `traceparent` header when it sends one) and is counted
 * by route and status. A call requested here carries the span's trace into its row and its job, so the API leg,
 * the queue, the orchestrator and the device leg are one trace (DESIGN §2).
 */
export function registerRequestTelemetry(fastify: FastifyInstance, registry: Registry): void {
  const requests = new Counter({
    name: 'admin_api_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'admin_api_http_request_seconds',
    help: 'HTTP request duration, by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const active = new WeakMap<
    FastifyRequest,
    { span: Span; context: ReturnType<typeof startDetachedSpan>['context'] }
  >();
  const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';
  countClientErrors(fastify, registry);

  fastify.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers['traceparent'];
    const started = startDetachedSpan(`${request.method} ${routeOf(request)}`, {
      kind: 'server',
      parent: contextFromTraceparent(typeof header === 'string' ? header : undefined),
      attributes: { 'http.request.method': request.method, 'http.route': routeOf(request) },
    });
    active.set(request, started);
    done();
  });
  // The body is parsed on the socket's own async context; the span becomes active only here, just before the
  // handler runs, so everything the handler awaits belongs to it.
  fastify.addHook('preHandler', (request, _reply, done) => {
    const started = active.get(request);
    if (!started) return done();
    runInContext(started.context, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    const started = active.get(request);
    if (started) {
      started.span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) markSpanFailed(started.span, `answered ${reply.statusCode}`);
      started.span.end();
      active.delete(request);
    }
    done();
  });
}

const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,39}$/;

/**
 * What Node's HTTP parser refuses before Fastify sees a request (headers too large: 431; not HTTP: 400; too slow:
 * 408) is answered by Fastify's client error handler and never reaches a route, so it is counted here.
 */
function countClientErrors(fastify: FastifyInstance, registry: Registry): void {
  const clientErrors = new Counter({
    name: 'admin_api_client_errors_total',
    help: 'Connections refused by the HTTP parser before routing (malformed request, headers too large, too slow), by code',
    labelNames: ['code'],
    registers: [registry],
  });
  fastify.server.on('clientError', (err: Error & { code?: unknown }) => {
    const code = typeof err.code === 'string' && ERROR_CODE.test(err.code) ? err.code : 'other';
    clientErrors.inc({ code });
  });
}
