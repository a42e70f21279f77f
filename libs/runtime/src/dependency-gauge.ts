import { Gauge, runHealthChecks, type HealthCheck, type Registry } from '@fleet/telemetry';

/**
 * `fleet_dependency_up{dependency}`: 1 when the health check of that dependency passes, 0 when it fails, run
 * at every scrape, so an alert rule sees a dependency down as `/healthz` does (deploy/prometheus).
 */
export function registerDependencyGauge(registry: Registry, checks: HealthCheck[]): void {
  new Gauge({
    name: 'fleet_dependency_up',
    help: 'Whether a dependency the service needs answers its health check (1) or not (0), by dependency',
    labelNames: ['dependency'],
    registers: [registry],
    async collect() {
      const report = await runHealthChecks(checks, 1_000);
      for (const [name, result] of Object.entries(report.checks)) {
        this.set({ dependency: name }, result.ok ? 1 : 0);
      }
    },
  });
}
