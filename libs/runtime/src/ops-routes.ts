import type { FastifyInstance } from 'fastify';
import { runHealthChecks, type HealthCheck, type Registry } from '@fleet/telemetry';
import { registerDependencyGauge } from './dependency-gauge';

export interface OpsRoutesOptions {
  checks: HealthCheck[];
  registry: Registry;
}

/**
 * `GET /healthz` (200 when every real dependency answers, 503 with the reasons otherwise; 200 with status
 * `degraded` when only something the service can work without is missing) and `GET /metrics`.
 */
export function registerOpsRoutes(app: FastifyInstance, { checks, registry }: OpsRoutesOptions): void {
  registerDependencyGauge(registry, checks);
  app.get('/healthz', async (_request, reply) => {
    const report = await runHealthChecks(checks);
    return reply.code(report.ok ? 200 : 503).send(report);
  });
  app.get('/metrics', async (_request, reply) => {
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}
