import { SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import type { RouteHandler } from '../http/route-metadata';
import type { AuditEntry } from './audit.service';
import { auditableBody } from './audit.service';

const AUDIT_KEY = 'fleet:audit';

/** What a mutating route does in the audit trail (`call.cancel` on a `call`). */
export interface AuditSpec {
  action: string;
  targetType: string;
  /**
   * The handler's own INSERT writes a success's audit row (audited-write.ts): only for a route whose target is its
   * `:id`, since the row is built before the handler has answered.
   */
  byWrite?: boolean;
}

/** Names what a mutating route does in the audit trail (`call.cancel` on a `call`). */
export const Audited = (action: string, targetType: string, options: { byWrite?: boolean } = {}) =>
  SetMetadata(AUDIT_KEY, { action, targetType, ...(options.byWrite ? { byWrite: true } : {}) });

/** The route's declared spec; a route without one is audited as `METHOD /path` on a `route`. */
export function declaredAuditSpec(reflector: Reflector, handler: RouteHandler): AuditSpec | undefined {
  return reflector.get<AuditSpec | undefined>(AUDIT_KEY, handler);
}

/**
 * The audit event of one mutating request, whether it succeeded or was refused (a refused approval is as much a
 * fact as a granted one).
 */
export function auditEntryOf(
  request: FastifyRequest,
  declared: AuditSpec | undefined,
  status: number,
  result: unknown,
  error?: unknown,
): AuditEntry {
  const spec = declared ?? {
    action: `${request.method} ${request.routeOptions.url ?? request.url}`,
    targetType: 'route',
  };
  return {
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
  };
}

function targetIdOf(request: FastifyRequest, result: unknown): string | null {
  const params = request.params as Record<string, string> | undefined;
  if (params?.['id']) return params['id'];
  const id = (result as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : null;
}

/** The status a refusal answers with (ours, Nest's or Fastify's; anything else is a 500). */
export function statusOf(err: unknown): number {
  if (err instanceof ApiError) return err.status;
  const status =
    (err as { status?: unknown; statusCode?: unknown }).status ??
    (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : 500;
}
