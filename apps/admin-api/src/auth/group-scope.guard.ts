import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { isCanonicalMac } from '@fleet/protocol';
import { AuditService } from '../audit/audit.service';
import { originOf, type Actor } from '../http/actor';
import { ApiError } from '../http/api-error';
import { ROLE_KEY } from '../http/route-metadata';
import { DeviceScope } from './device-scope';
import { scopeRuleOf } from './group-scope-routes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * After AuthGuard: a group-scoped key reaches only what group-scope-routes.ts allows it, and only within its
 * groups. Unscoped keys and sessions pass untouched. A refused change is audited, as a refused role is.
 */
@Injectable()
export class GroupScopeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly scope: DeviceScope,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const actor = request.actor;
    if (!actor?.deviceGroups) return true;
    const role = this.reflector.getAllAndOverride<string | undefined>(ROLE_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (role === 'public') return true;
    try {
      await this.check(actor, request);
      return true;
    } catch (err) {
      if (err instanceof ApiError && request.method !== 'GET') await this.denied(actor, request, err);
      throw err;
    }
  }

  /** An id that is not even well formed is left to the route's own validation (a 400 naming `params.id`). */
  private async check(actor: Actor, request: FastifyRequest): Promise<void> {
    const url = request.routeOptions.url ?? request.url;
    const id = (request.params as { id?: unknown } | undefined)?.id;
    const param = typeof id === 'string' ? id : '';
    switch (scopeRuleOf(request.method, url)) {
      case 'device':
        return isCanonicalMac(param) ? this.scope.assertDevice(actor, param) : undefined;
      case 'call':
        return UUID.test(param) ? this.scope.assertCall(actor, param) : undefined;
      case 'campaign':
        return UUID.test(param) ? this.scope.assertCampaign(actor, param) : undefined;
      case 'schedule':
        return UUID.test(param) ? this.scope.assertSchedule(actor, param) : undefined;
      case 'selector':
        return this.scope.assertSelector(actor, request.body);
      case 'filtered':
      case 'open':
        return;
      case undefined:
        throw new ApiError(
          403,
          'outside_key_scope',
          `this key reaches only the devices of its groups; ${request.method} ${url} spans the fleet`,
        );
    }
  }

  private async denied(actor: Actor, request: FastifyRequest, err: ApiError): Promise<void> {
    await this.audit.record(actor, originOf(request), {
      action: 'access.denied',
      targetType: 'route',
      targetId: `${request.method} ${request.routeOptions.url ?? request.url}`,
      details: { scope: 'device_groups', status: err.status, error: err.code },
    });
  }
}
