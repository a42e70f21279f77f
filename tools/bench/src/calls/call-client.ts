import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import type { Verdict } from '@fleet/domain';
import { CallRequests, subscribePlatformEvents } from '@fleet/platform-client';
import { createRedis, type Redis } from '@fleet/queues';

export interface CallOutcome {
  callId: string;
  deviceId: string;
  /** `unsealed`: no sealed event within the client's seal timeout (the phase still ends, and says so). */
  verdict: Verdict | 'unsealed';
  /** Time spent in CallRequests.request (row inserted, job added). */
  enqueueMs: number;
  /** From just before the request to the sealed event on `fleet:events`. */
  latencyMs: number;
}

interface Waiter {
  deviceId: string;
  started: number;
  enqueueMs: number;
  timer: NodeJS.Timeout;
  resolve: (outcome: CallOutcome) => void;
}

/**
 * A producer of calls as the API and the voice worker are (CallRequests: the call row and its BullMQ job), that
 * learns each verdict the way live views do: the orchestrator's sealed event on `fleet:events`, published once
 * the verdict and the evidence rows are committed.
 */
export class CallClient {
  private readonly waiters = new Map<string, Waiter>();
  /** Sealed events that arrived before `request` returned the call's id (a fast call on a busy producer). */
  private readonly early = new Map<string, { verdict: Verdict; at: number }>();

  private constructor(
    private readonly pool: Pool,
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly requests: CallRequests,
    private readonly sealTimeoutMs: number,
  ) {}

  /** `sealTimeoutMs`: a call not sealed by then counts as `unsealed` rather than holding the benchmark forever. */
  static async connect(
    databaseUrl: string,
    redisUrl: string,
    o: { poolSize?: number; sealTimeoutMs?: number } = {},
  ): Promise<CallClient> {
    const pool = new Pool({ connectionString: databaseUrl, max: o.poolSize ?? 20 });
    const redis = createRedis(redisUrl);
    const subscriber = createRedis(redisUrl);
    const client = new CallClient(
      pool,
      redis,
      subscriber,
      new CallRequests(pool, redis, 'fleet'),
      o.sealTimeoutMs ?? 120_000,
    );
    await subscribePlatformEvents(subscriber, (event) => {
      if (event.type !== 'call' || event.state !== 'finished' || !event.verdict) return;
      client.sealed(event.callId, event.verdict, performance.now());
    });
    return client;
  }

  async call(deviceId: string, tool: string, args: Record<string, unknown>): Promise<CallOutcome> {
    const started = performance.now();
    const result = await this.requests.request({ deviceId, tool, arguments: args, origin: 'operator' });
    const enqueueMs = performance.now() - started;
    if (!result.ok) throw new Error(`call refused: ${result.error}: ${result.message}`);
    return new Promise<CallOutcome>((resolve) => {
      const early = this.early.get(result.callId);
      if (early) {
        this.early.delete(result.callId);
        resolve({
          callId: result.callId,
          deviceId,
          verdict: early.verdict,
          enqueueMs,
          latencyMs: early.at - started,
        });
        return;
      }
      const timer = setTimeout(
        () => this.sealed(result.callId, 'unsealed', performance.now()),
        this.sealTimeoutMs,
      );
      this.waiters.set(result.callId, { deviceId, started, enqueueMs, timer, resolve });
    });
  }

  get inFlight(): number {
    return this.waiters.size;
  }

  async close(): Promise<void> {
    await this.requests.close();
    this.subscriber.disconnect();
    this.redis.disconnect();
    await this.pool.end();
  }

  private sealed(callId: string, verdict: Verdict | 'unsealed', at: number): void {
    const waiter = this.waiters.get(callId);
    if (!waiter) {
      if (verdict !== 'unsealed') this.early.set(callId, { verdict, at });
      return;
    }
    clearTimeout(waiter.timer);
    this.waiters.delete(callId);
    waiter.resolve({
      callId,
      deviceId: waiter.deviceId,
      verdict,
      enqueueMs: waiter.enqueueMs,
      latencyMs: at - waiter.started,
    });
  }
}
