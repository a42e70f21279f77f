import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error';
import { InputRefusals } from './input-refusals';
import { routeSchemas, type RouteSchemas } from './route-metadata';

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

/**
 * The same rules for a read, whose route has no other policy to run (RequestPolicyInterceptor runs them for routes
 * that change something, where the refusal is audited): input no route may take (InputRefusals), then input this
 * route does not declare. A method guard: it runs after the global AuthGuard, as the interceptor did, so an
 * anonymous caller learns nothing of a route's inputs.
 */
@Injectable()
export class UndeclaredInputGuard implements CanActivate {
  private readonly schemas = new WeakMap<object, RouteSchemas>();

  constructor(private readonly inputs: InputRefusals) {}

  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let schemas = this.schemas.get(handler);
    if (!schemas) {
      schemas = routeSchemas(context.getClass().prototype as object, handler.name);
      this.schemas.set(handler, schemas);
    }
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const refusal = this.inputs.refusalFor(request) ?? undeclaredInputError(request, schemas);
    if (refusal) throw refusal;
    return true;
  }
}
