import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { roleAllows, type Role } from '@fleet/auth';
import { AuditService } from '../audit/audit.service';
import { originOf } from '../http/actor';
import { ApiError, forbidden } from '../http/api-error';
import { ROLE_KEY } from '../http/route-metadata';
import { AuthService } from './auth.service';
import { readCookie, SESSION_COOKIE } from './session-token';

/**
 * Every route declares the least role it needs (`@Roles`); one without a declaration needs admin, so a
 * forgotten decorator fails closed. A person refused for their role on a mutating route is audited.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const needed =
      this.reflector.getAllAndOverride<Role | 'public' | undefined>(ROLE_KEY, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'admin';
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const authenticate = () =>
      this.auth.authenticate(
        bearerOf(request.headers.authorization),
        readCookie(request.headers.cookie, SESSION_COOKIE),
      );
    if (needed === 'public') {
      // A stale cookie or token must not stand between a person and signing in again.
      const actor = await authenticate().catch(() => undefined);
      if (actor) request.actor = actor;
      return true;
    }
    const actor = await authenticate();
    if (actor) request.actor = actor;
    if (!actor) {
      throw new ApiError(
        401,
        'unauthenticated',
        'send Authorization: Bearer <API key or session token>, or sign in',
      );
    }
    if (roleAllows(actor.role, needed)) return true;
    if (request.method !== 'GET') {
      await this.audit.record(actor, originOf(request), {
        action: 'access.denied',
        targetType: 'route',
        targetId: `${request.method} ${request.routeOptions.url ?? request.url}`,
        details: { needed, held: actor.role },
      });
    }
    throw forbidden('role_required', `this needs the ${needed} role; yours is ${actor.role}`);
  }
}

/** The token of an `Authorization: Bearer <token>` header; a malformed header is refused, an absent one is not. */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError(401, 'invalid_credentials', 'Authorization must read "Bearer <token>"');
  return match[1];
}
