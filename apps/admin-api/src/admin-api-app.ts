import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { StopFunction } from '@fleet/runtime';
import type { Logger } from '@fleet/telemetry';
import { AppModule } from './app.module';
import type { AdminApiConfig } from './config';

export interface AdminApiHandle {
  app: NestFastifyApplication;
  ports: { http: number };
  stop: StopFunction;
}

/** Builds and starts the NestJS app on Fastify. */
export async function startAdminApi(config: AdminApiConfig, logger: Logger): Promise<AdminApiHandle> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger),
    new FastifyAdapter({ bodyLimit: 1024 * 1024, trustProxy: true }),
    { logger: false, abortOnError: false },
  );
  app.setGlobalPrefix('api/v1', { exclude: ['healthz', 'metrics', 'docs'] });
  app.enableShutdownHooks([]); // signals are handled by runService, which calls stop()
  await app.listen(config.HTTP_PORT, config.BIND_HOST);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.HTTP_PORT;
  logger.info({ ports: { http: port } }, 'admin API listening');
  return { app, ports: { http: port }, stop: () => app.close() };
}
