import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuditRow } from './audit.repository';

/**
 * The audit row of a request whose own INSERT records it (`@Audited(…, { byWrite: true })`). The request policy
 * builds the row a success is recorded with before the handler runs; the handler hands it to its statement and
 * sets `written` once that statement committed it. The policy then writes no row of its own: the answer still
 * leaves only after its row is committed, with one statement and one commit fewer. A request that ends refused
 * is audited by the policy as every other one (also after its row was written: the answer was a refusal).
 */
export interface AuditedWrite {
  readonly row: AuditRow;
  written: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auditedWrite?: AuditedWrite;
  }
}

/** The request's audited write (undefined on a route that is not `byWrite`). */
export const AuditedWriteOf = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AuditedWrite | undefined =>
    ctx.switchToHttp().getRequest<FastifyRequest>().auditedWrite,
);
