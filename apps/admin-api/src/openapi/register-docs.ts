import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { OpenApiDocument } from './openapi-document';

/** `/docs` (Swagger UI, its assets shipped in the package) and `/docs/json`, serving the built document. */
export async function registerDocs(app: NestFastifyApplication, document: OpenApiDocument): Promise<void> {
  // Nest types its instance with its own type provider; the plugins are typed for the default one.
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  await fastify.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  await fastify.register(fastifySwaggerUi, { routePrefix: '/docs' });
}
