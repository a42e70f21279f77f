import { collectDefaultMetrics, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per service: process metrics plus whatever the service registers on it. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}
