import {
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, throwError, type Observable } from 'rxjs';
import { originOf } from '../http/actor';
import { ApiError } from '../http/api-error';
import { routeStatus } from '../http/route-status';
import { AuditService, auditableBody } from './audit.service';

const AUDIT_KEY = 'fleet:audit';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface AuditSpec {
  action: string;
  targetType: string;
}

/** Names what a mutating route does in the audit trail (`call.cancel` on a `call`). */
export const Audited = (action: string, targetType: string) => SetMetadata(AUDIT_KEY, { action, targetType });

/**
 * Every mutating request becomes one audit event, whether it succeeded or was refused (a refused approval
 * is as much a fact as a granted one). The event is written before the response leaves.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler<unknown>): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!MUTATING.has(request.method)) return next.handle();
    const spec = this.reflector.get<AuditSpec | undefined>(AUDIT_KEY, context.getHandler()) ?? {
      action: `${request.method} ${request.routeOptions.url ?? request.url}`,
      targetType: 'route',
    };
    const write = (status: number, result: unknown, error?: unknown) =>
      this.audit.record(request.actor, originOf(request), {
        action: spec.action,
        targetType: spec.targetType,
        targetId: targetIdOf(request, result),
        details: {
          status,
          outcome: error === undefined ? 'done' : 'refused',
          ...(error instanceof ApiError ? { error: error.code, message: error.message } : {}),
          params: request.params,
          body: auditableBody(request.body),
        },
      });
    return next.handle().pipe(
      mergeMap((result) => from(write(routeStatus(context, this.reflector), result).then(() => result))),
      catchError((err: unknown) =>
        from(write(statusOf(err), undefined, err)).pipe(mergeMap(() => throwError(() => err))),
      ),
    );
  }
}

function targetIdOf(request: FastifyRequest, result: unknown): string | null {
  const params = request.params as Record<string, string> | undefined;
  if (params?.['id']) return params['id'];
  const id = (result as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : null;
}

function statusOf(err: unknown): number {
  if (err instanceof ApiError) return err.status;
  const status =
    (err as { status?: unknown; statusCode?: unknown }).status ??
    (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : 500;
}
