import { collectDefaultMetrics, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

const EVENT_LOOP_SAMPLE_MS = 100;

/** One registry per service: process metrics plus whatever the service registers on it. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // Event-loop delay is sampled by a repeating timer (perf_hooks.monitorEventLoopDelay) at this resolution: the
  // default 10 ms wakes every idle service 100 times a second, for nothing. A stall long enough to matter
  // (`nodejs_eventloop_lag_*`) is seen just as well at 100 ms.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return registry;
}
