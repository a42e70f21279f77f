export { createLogger, type Logger } from './logger';
export { createMetricsRegistry, Counter, Gauge, Histogram, Registry } from './metrics';
export { runHealthChecks, sharedHealthChecks, type HealthCheck, type HealthReport } from './health';
export { HOW_TO_START } from './dependency-hints';
export { startTracing, type TracingHandle, type TracingOptions } from './tracing';
export {
  contextFromTraceparent,
  currentTraceparent,
  inSpan,
  linkTo,
  markSpanFailed,
  runInContext,
  startDetachedSpan,
} from './trace-context';
export type { Span } from '@opentelemetry/api';
