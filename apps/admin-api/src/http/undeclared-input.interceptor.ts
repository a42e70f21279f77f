import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { ApiError } from './api-error';
import { routeSchemas } from './route-metadata';

/**
 * Unknown fields are refused everywhere, not only where a schema exists: a route that declares no query
 * schema takes no query, one that declares no body schema takes no body. A typo then fails loudly
 * (`?limt=5`) instead of being silently ignored.
 */
@Injectable()
export class UndeclaredInputInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<unknown>): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!request.url.startsWith('/api/')) return next.handle(); // /healthz, /metrics
    const schemas = routeSchemas(context.getClass().prototype as object, context.getHandler().name);
    const issues: { field: string; message: string }[] = [];
    if (!schemas.query) {
      for (const key of Object.keys((request.query as Record<string, unknown> | undefined) ?? {})) {
        issues.push({ field: `query.${key}`, message: 'unknown field' });
      }
    }
    if (!schemas.body && hasBody(request.body))
      issues.push({ field: 'body', message: 'this route takes no body' });
    if (issues.length > 0) {
      throw new ApiError(
        400,
        'validation_failed',
        issues.map((i) => `${i.field}: ${i.message}`).join('; '),
        issues,
      );
    }
    return next.handle();
  }
}

function hasBody(body: unknown): boolean {
  if (body === undefined || body === null) return false;
  if (typeof body === 'object' && !Buffer.isBuffer(body)) return Object.keys(body).length > 0;
  return true;
}
