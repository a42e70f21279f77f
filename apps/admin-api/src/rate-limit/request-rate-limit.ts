import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { ApiErrorBody } from '@fleet/api-contract';
import type { Redis } from '@fleet/queues';
import { Counter, type Logger, type Registry } from '@fleet/telemetry';
import type { AdminApiConfig } from '../config';
import { DEPENDENCY_WAIT_MS } from '../infra/dependency-wait';
import { addressBucket, credentialBucket } from './rate-limit-buckets';

type Scope = 'address' | 'key';

/** Probes and scrapes: a limit there would only blind the platform's own watchers. */
const UNCOUNTED = new Set(['/healthz', '/metrics']);

interface Deps {
  redis: Redis;
  config: AdminApiConfig;
  registry: Registry;
  logger: Logger;
}

/**
 * A request rate limit per client address and per credential, counted in Redis so that every replica spends one
 * budget (RATE_LIMIT_PER_ADDRESS and RATE_LIMIT_PER_KEY per RATE_LIMIT_WINDOW_S). It runs on Fastify's onRequest,
 * before the body is read and before Nest's guards look the credential up, so a flood costs a Redis command per
 * request and, once over, not even that (a bucket over its limit is held in memory until its window ends). The
 * address is counted first: a request its address may not make spends nothing of its credential's budget.
 *
 * While Redis is unreachable (or slower than the API waits for any dependency) each replica counts in its own
 * memory: the limit then holds per replica, and the API keeps answering.
 */
export function registerRequestRateLimit(fastify: FastifyInstance, deps: Deps): void {
  const { config } = deps;
  const limited = new Counter({
    name: 'admin_api_rate_limited_total',
    help: 'requests refused with 429 for going over the per-address or per-credential rate limit, by scope',
    labelNames: ['scope'],
    registers: [deps.registry],
  });
  const limiters: Record<Scope, { limiter: RateLimiterAbstract; points: number }> = {
    address: {
      limiter: limiter(deps, 'address', config.RATE_LIMIT_PER_ADDRESS),
      points: config.RATE_LIMIT_PER_ADDRESS,
    },
    key: { limiter: limiter(deps, 'key', config.RATE_LIMIT_PER_KEY), points: config.RATE_LIMIT_PER_KEY },
  };

  /** Undefined when the request may go on; else the 429 has been sent. */
  const refused = async (
    scope: Scope,
    bucket: string,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> => {
    try {
      await limiters[scope].limiter.consume(bucket);
      return undefined;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        // Neither Redis nor memory could count it: a limiter's fault must not refuse the request.
        deps.logger.warn({ err, scope }, 'rate limit not counted');
        return undefined;
      }
      limited.inc({ scope });
      const retryAfterS = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      const from = scope === 'key' ? 'this credential' : 'this address';
      const body: ApiErrorBody = {
        statusCode: 429,
        code: 'too_many_requests',
        message: `more than ${limiters[scope].points} requests in ${config.RATE_LIMIT_WINDOW_S} s from ${from}; try again in ${retryAfterS} s`,
      };
      // RFC 9110 §10.2.3, as every 429 of the API says when to come back.
      return reply
        .code(429)
        .header('retry-after', String(retryAfterS))
        .header('content-type', 'application/json')
        .send(body);
    }
  };

  fastify.addHook('onRequest', async (request, reply) => {
    if (UNCOUNTED.has(request.routeOptions.url ?? '')) return;
    const byAddress = await refused('address', addressBucket(request.ip || 'unknown'), reply);
    if (byAddress) return byAddress;
    const credential = credentialBucket(request.headers);
    if (credential === undefined) return;
    const byKey = await refused('key', credential, reply);
    if (byKey) return byKey;
  });
}

function limiter(deps: Deps, scope: Scope, points: number): RateLimiterAbstract {
  const duration = deps.config.RATE_LIMIT_WINDOW_S;
  const insuranceLimiter = new RateLimiterMemory({ points, duration });
  const shared = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.config.QUEUE_PREFIX}:rate-limit:${scope}`,
    points,
    duration,
    // Over the limit, the bucket is refused from memory until its window ends, without asking Redis again.
    inMemoryBlockOnConsumed: points + 1,
    // Not connected: count in memory at once rather than wait for a command that fails.
    rejectIfRedisNotReady: true,
    insuranceLimiter,
  });
  // Connected but not answering: no longer than the API waits for any dependency.
  return new RLWrapperTimeouts({ limiter: shared, timeoutMs: DEPENDENCY_WAIT_MS, insuranceLimiter });
}
