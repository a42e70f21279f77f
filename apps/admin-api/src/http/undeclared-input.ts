import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error';
import type { RouteSchemas } from './route-metadata';

/**
 * Unknown fields are refused everywhere, not only where a schema exists: a route that declares no query
 * schema takes no query, one that declares no body schema takes no body. A typo then fails loudly
 * (`?limt=5`) instead of being silently ignored. The 400 for such a request, or undefined.
 */
export function undeclaredInputError(request: FastifyRequest, schemas: RouteSchemas): ApiError | undefined {
  if (!request.url.startsWith('/api/')) return undefined; // /healthz, /metrics
  const issues: { field: string; message: string }[] = [];
  if (!schemas.query) {
    for (const key of Object.keys((request.query as Record<string, unknown> | undefined) ?? {})) {
      issues.push({ field: `query.${key}`, message: 'unknown field' });
    }
  }
  if (!schemas.body && hasBody(request.body))
    issues.push({ field: 'body', message: 'this route takes no body' });
  if (issues.length === 0) return undefined;
  return new ApiError(
    400,
    'validation_failed',
    issues.map((i) => `${i.field}: ${i.message}`).join('; '),
    issues,
  );
}

function hasBody(body: unknown): boolean {
  if (body === undefined || body === null) return false;
  if (typeof body === 'object' && !Buffer.isBuffer(body)) return Object.keys(body).length > 0;
  return true;
}
