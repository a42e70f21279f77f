import { createHash } from 'node:crypto';
import { createParamDecorator, Injectable, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { canonicalJson } from '@fleet/domain';
import { ApiError } from '../http/api-error';
import type { RouteHandler } from '../http/route-metadata';
import { IdempotencyRepository } from './idempotency.repository';

const IDEMPOTENT_KEY = 'fleet:idempotent';
const HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** A POST that starts something: a retry with the same Idempotency-Key replays the first answer. */
export const Idempotent = () => SetMetadata(IDEMPOTENT_KEY, true);

/** Whether the route replays a retried answer (`@Idempotent`). */
export function isIdempotent(handler: RouteHandler): boolean {
  return Reflect.getMetadata(IDEMPOTENT_KEY, handler) === true;
}

/** The request's Idempotency-Key, for services that also key their own rows by it. */
export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined =>
  headerKey(ctx.switchToHttp().getRequest<FastifyRequest>()),
);

/**
 * DESIGN §3: a client that retries after a timeout never creates a second reboot. Keys are scoped to the
 * operator (two people cannot collide), bound to the request they first came with, and held in Postgres so a
 * retry may reach any replica. Run by RequestPolicyInterceptor around an @Idempotent route's handler.
 */
@Injectable()
export class IdempotentRequests {
  constructor(private readonly records: IdempotencyRepository) {}

  /**
   * The handler's answer, or the first answer to this key replayed (the handler then does not run). `status` is
   * the route's success status, kept with the answer.
   */
  async run(request: FastifyRequest, status: number, handle: () => Promise<unknown>): Promise<unknown> {
    const key = headerKey(request);
    const operatorId = request.actor?.operatorId;
    if (key === undefined || operatorId === undefined) return handle();
    const hash = requestHash(request);
    const claim = await this.records.claim(operatorId, key, hash);
    if (claim.kind !== 'claimed' && claim.requestHash !== hash) {
      throw new ApiError(
        422,
        'idempotency_key_reused',
        `headers.${HEADER}: this key was used for a different request; use a new key`,
        [{ field: `headers.${HEADER}`, message: 'used for a different request' }],
      );
    }
    if (claim.kind === 'in_progress') {
      throw new ApiError(
        409,
        'idempotency_in_progress',
        'a request with this Idempotency-Key is still running',
      );
    }
    if (claim.kind === 'done') return claim.body;
    try {
      const body = await handle();
      await this.records.complete(operatorId, key, status, body);
      return body;
    } catch (err) {
      await this.records.release(operatorId, key);
      throw err;
    }
  }
}

function headerKey(request: FastifyRequest): string | undefined {
  const value = request.headers[HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) {
    throw new ApiError(400, 'validation_failed', `headers.${HEADER}: 1 to 255 visible ASCII characters`, [
      { field: `headers.${HEADER}`, message: '1 to 255 visible ASCII characters' },
    ]);
  }
  return value;
}

function requestHash(request: FastifyRequest): string {
  const body = Buffer.isBuffer(request.body)
    ? createHash('sha256').update(request.body).digest('hex')
    : canonicalJson(request.body ?? null);
  return createHash('sha256')
    .update(canonicalJson({ method: request.method, url: request.url, body }))
    .digest('hex');
}
