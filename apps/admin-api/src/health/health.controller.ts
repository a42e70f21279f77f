import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { postgresHealthCheck, type Pool } from '@fleet/db';
import { redisHealthCheck, type Redis } from '@fleet/queues';
import { registerDependencyGauge } from '@fleet/runtime';
import { sharedHealthChecks, type HealthReport, type Registry } from '@fleet/telemetry';
import { Roles } from '../http/route-metadata';
import { METRICS_REGISTRY, PG_POOL, REDIS } from '../infra/tokens';

/** `/healthz` checks the API's real dependencies; `/metrics` is Prometheus text. Both outside /api/v1. */
@Controller()
@Roles('public')
export class HealthController {
  private readonly runChecks: () => Promise<HealthReport>;

  constructor(
    @Inject(PG_POOL) pool: Pool,
    @Inject(REDIS) redis: Redis,
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
  ) {
    const checks = [postgresHealthCheck(pool), redisHealthCheck(redis)];
    registerDependencyGauge(registry, checks);
    this.runChecks = sharedHealthChecks(checks);
  }

  @Get('healthz')
  async health(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.runChecks();
    await reply.code(report.ok ? 200 : 503).send(report);
  }

  @Get('metrics')
  @Header('cache-control', 'no-store')
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    await reply.header('content-type', this.registry.contentType).send(await this.registry.metrics());
  }
}
