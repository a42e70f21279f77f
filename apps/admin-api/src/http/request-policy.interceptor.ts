import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { auditEntryOf, declaredAuditSpec, statusOf, type AuditSpec } from '../audit/audited';
import { AuditService, auditRowOf } from '../audit/audit.service';
import { IdempotentRequests, isIdempotent } from '../idempotency/idempotent-requests';
import { originOf } from './actor';
import { InputRefusals } from './input-refusals';
import { routeSchemas, type RouteSchemas } from './route-metadata';
import { routeStatus } from './route-status';
import { undeclaredInputError } from './undeclared-input';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What the policy needs of a route, read from its metadata once (the first request), not on every request. */
interface RoutePolicy {
  audit: AuditSpec | undefined;
  schemas: RouteSchemas;
  idempotent: boolean;
  status: number;
}

/**
 * The API's four rules around every handler, in one pass (each was an interceptor of its own, and Nest binds an
 * async resource and builds an rxjs pipe per interceptor per request), in the order they always ran:
 * 1. audit, outermost: every mutating request becomes one audit event, written before the answer leaves, whether
 *    it succeeded or was refused, a refusal by the rules below included;
 * 2. a body nested too deep, and a string Postgres cannot store anywhere in the request, are refused before
 *    anything walks them (InputRefusals);
 * 3. undeclared input (an unknown query field, a body where the route takes none) is refused;
 * 4. idempotency: a retried @Idempotent request replays the first answer, audited as the request it answers.
 */
@Injectable()
export class RequestPolicyInterceptor implements NestInterceptor {
  private readonly routes = new WeakMap<object, RoutePolicy>();

  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
    private readonly inputs: InputRefusals,
    private readonly idempotency: IdempotentRequests,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler<unknown>): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const route = this.policyOf(context);
    if (!MUTATING.has(request.method)) {
      const refusal = this.refusalOf(request, route);
      if (refusal) throw refusal;
      return route.idempotent ? from(this.handle(request, route, next)) : next.handle();
    }
    return from(this.audited(request, route, next));
  }

  private async audited(request: FastifyRequest, route: RoutePolicy, next: CallHandler<unknown>) {
    let result: unknown;
    try {
      const refusal = this.refusalOf(request, route);
      if (refusal) throw refusal;
      if (route.audit?.byWrite) this.offerAuditedWrite(request, route);
      result = await this.handle(request, route, next);
    } catch (err) {
      await this.record(request, route, statusOf(err), undefined, err);
      throw err;
    }
    if (!request.auditedWrite?.written) await this.record(request, route, route.status, result);
    return result;
  }

  /** The row a success is recorded with, for the handler's own INSERT to write (audited-write.ts). */
  private offerAuditedWrite(request: FastifyRequest, route: RoutePolicy): void {
    const entry = auditEntryOf(request, route.audit, route.status, undefined);
    // Its target must not depend on the answer, which does not exist yet.
    if (entry.targetId === null) return;
    request.auditedWrite = { row: auditRowOf(request.actor, originOf(request), entry), written: false };
  }

  private handle(request: FastifyRequest, route: RoutePolicy, next: CallHandler<unknown>): Promise<unknown> {
    // A handler answers one value (a promise's, or an Observable's only one).
    const run = () => lastValueFrom(next.handle(), { defaultValue: undefined });
    return route.idempotent ? this.idempotency.run(request, route.status, run) : run();
  }

  private refusalOf(request: FastifyRequest, route: RoutePolicy) {
    return this.inputs.refusalFor(request) ?? undeclaredInputError(request, route.schemas);
  }

  private record(
    request: FastifyRequest,
    route: RoutePolicy,
    status: number,
    result: unknown,
    error?: unknown,
  ) {
    return this.audit.record(
      request.actor,
      originOf(request),
      auditEntryOf(request, route.audit, status, result, error),
    );
  }

  private policyOf(context: ExecutionContext): RoutePolicy {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (!route) {
      route = {
        audit: declaredAuditSpec(this.reflector, handler),
        schemas: routeSchemas(context.getClass().prototype as object, handler.name),
        idempotent: isIdempotent(handler),
        status: routeStatus(context, this.reflector),
      };
      this.routes.set(handler, route);
    }
    return route;
  }
}
