import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Redis } from '@fleet/queues';
import type { StopFunction } from '@fleet/runtime';
import type { Logger, Registry } from '@fleet/telemetry';
import { apiControllers, AppModule } from './app.module';
import { CredentialChanges } from './auth/credential-changes-adapter';
import { registerCredentialFlush } from './auth/credential-flush';
import type { AdminApiConfig } from './config';
import { registerConsole } from './console/serve-console';
import { registerAnswerValidation } from './http/answer-validation';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { registerRequestTelemetry } from './http/request-telemetry';
import { assertRequestPolicy, declareRequestPolicy } from './http/route-policy';
import { METRICS_REGISTRY, REDIS } from './infra/tokens';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { registerRequestRateLimit } from './rate-limit/request-rate-limit';
import { registerDocs } from './openapi/register-docs';

export interface AdminApiHandle {
  app: NestFastifyApplication;
  ports: { http: number };
  stop: StopFunction;
}

const API_PREFIX = 'api/v1';

/** Builds and starts the NestJS app on Fastify. */
export async function startAdminApi(config: AdminApiConfig, logger: Logger): Promise<AdminApiHandle> {
  // Built first: a route without a declared role stops the start here, before anything listens.
  const document = buildOpenApiDocument(apiControllers(), API_PREFIX);
  const adapter = new FastifyAdapter({ bodyLimit: 1024 * 1024, trustProxy: config.TRUST_PROXY });
  // Firmware images arrive as raw bytes, larger than any JSON body; eFuse serial → key pairs (POST /serial-keys)
  // as CSV, read as bytes too: the audit then keeps their size and hash only.
  const fastify = adapter.getInstance();
  if (config.VALIDATE_ANSWERS) registerAnswerValidation(adapter.getInstance(), API_PREFIX, logger);
  fastify.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: config.FIRMWARE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  fastify.addContentTypeParser(
    'text/csv',
    { parseAs: 'buffer', bodyLimit: 16 * 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  const root = AppModule.forRoot(config, logger);
  declareRequestPolicy(root);
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: false,
    abortOnError: false,
  });
  assertRequestPolicy(app);
  registerRequestTelemetry(adapter.getInstance(), app.get<Registry>(METRICS_REGISTRY));
  // After telemetry's own onRequest: a refused request is still a span and counted with its 429.
  registerRequestRateLimit(adapter.getInstance(), {
    redis: app.get<Redis>(REDIS),
    config,
    registry: app.get<Registry>(METRICS_REGISTRY),
    logger,
  });
  registerCredentialFlush(adapter.getInstance(), app.get(CredentialChanges));
  app.useGlobalFilters(new ApiExceptionFilter(logger));
  app.setGlobalPrefix(API_PREFIX, { exclude: ['healthz', 'metrics'] });
  await registerDocs(app, document);
  registerConsole(app, logger); // the web console at `/`, when built
  // No enableShutdownHooks: signals are runService's, which calls stop() (app.close() runs the lifecycle hooks).
  // Given no list, Nest would listen to every signal it knows, SIGHUP and SIGUSR2 included, and close the app on any.
  // Its Redis link fails fast while not connected: give it a moment to connect before the first request.
  await redisReady(app.get<Redis>(REDIS), 2_000);
  await app.listen(config.HTTP_PORT, config.BIND_HOST);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.HTTP_PORT;
  logger.info({ ports: { http: port } }, 'admin API listening');
  return { app, ports: { http: port }, stop: () => app.close() };
}

/** Resolves once the connection is ready, or after `ms` (Redis down at start: the API starts and answers 503s). */
function redisReady(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    }
    redis.once('ready', done);
  });
}
