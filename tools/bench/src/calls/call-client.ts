import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import type { Verdict } from '@fleet/domain';
import { createPgPool } from '@fleet/db';
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

/** Asks for one call and answers its id: the producer in-process, or `POST /devices/:id/calls` through REST. */
export type CreateCall = (deviceId: string, tool: string, args: Record<string, unknown>) => Promise<string>;

/**
 * A producer of calls as the API and the voice worker are (CallRequests: the call row and its BullMQ job), or an
 * operator through the admin API's REST (`connectRest`), that learns each verdict the way live views do: the
 * orchestrator's sealed event on `fleet:events`, published once the verdict and the evidence rows are committed.
 */
export class CallClient {
  private readonly waiters = new Map<string, Waiter>();
  /** Sealed events that arrived before `request` returned the call's id (a fast call on a busy producer). */
  private readonly early = new Map<string, { verdict: Verdict; at: number }>();

  private constructor(
    private readonly subscriber: Redis,
    private readonly create: CreateCall,
    private readonly closeCreator: () => Promise<void>,
    private readonly sealTimeoutMs: number,
  ) {}

  /** `sealTimeoutMs`: a call not sealed by then counts as `unsealed` rather than holding the benchmark forever. */
  static async connect(
    databaseUrl: string,
    redisUrl: string,
    o: { poolSize?: number; sealTimeoutMs?: number } = {},
  ): Promise<CallClient> {
    // As the API and the voice worker open theirs (createPgPool), so the producer's statements cost what theirs do.
    const pool = createPgPool(databaseUrl, { max: o.poolSize ?? 20 });
    const redis = createRedis(redisUrl);
    const requests = new CallRequests(pool, redis, 'fleet');
    const create: CreateCall = async (deviceId, tool, args) => {
      const result = await requests.request({ deviceId, tool, arguments: args, origin: 'operator' });
      if (!result.ok) throw new Error(`call refused: ${result.error}: ${result.message}`);
      return result.callId;
    };
    const close = async () => {
      await requests.close();
      redis.disconnect();
      await pool.end();
    };
    return CallClient.listen(redisUrl, create, close, o.sealTimeoutMs);
  }

  /**
   * An operator's calls through REST: `POST /api/v1/devices/:id/calls` with their API key, at most `postsInFlight`
   * requests open at once, as an operator's script keeps them (the calls themselves stay outstanding: a fleet-wide
   * phase still has every device's call in the pipeline). Thousands of POSTs at once would only measure how the
   * API queues for its ten pooled connections.
   */
  static async connectRest(
    api: { baseUrl: string; key: string },
    redisUrl: string,
    o: { sealTimeoutMs?: number; postsInFlight?: number } = {},
  ): Promise<CallClient> {
    const limit = pLimit(o.postsInFlight ?? 64);
    const create: CreateCall = (deviceId, tool, args) => limit(() => postCall(api, deviceId, tool, args));
    return CallClient.listen(redisUrl, create, () => Promise.resolve(), o.sealTimeoutMs);
  }

  private static async listen(
    redisUrl: string,
    create: CreateCall,
    close: () => Promise<void>,
    sealTimeoutMs = 120_000,
  ): Promise<CallClient> {
    const subscriber = createRedis(redisUrl);
    const client = new CallClient(subscriber, create, close, sealTimeoutMs);
    await subscribePlatformEvents(subscriber, (event) => {
      if (event.type !== 'call' || event.state !== 'finished' || !event.verdict) return;
      client.sealed(event.callId, event.verdict, performance.now());
    });
    return client;
  }

  /** Asks for a call without waiting for its verdict; answers its id. */
  ask(deviceId: string, tool: string, args: Record<string, unknown>): Promise<string> {
    return this.create(deviceId, tool, args);
  }

  async call(deviceId: string, tool: string, args: Record<string, unknown>): Promise<CallOutcome> {
    const started = performance.now();
    const callId = await this.create(deviceId, tool, args);
    const enqueueMs = performance.now() - started;
    return new Promise<CallOutcome>((resolve) => {
      const early = this.early.get(callId);
      if (early) {
        this.early.delete(callId);
        resolve({
          callId,
          deviceId,
          verdict: early.verdict,
          enqueueMs,
          latencyMs: early.at - started,
        });
        return;
      }
      const timer = setTimeout(() => this.sealed(callId, 'unsealed', performance.now()), this.sealTimeoutMs);
      this.waiters.set(callId, { deviceId, started, enqueueMs, timer, resolve });
    });
  }

  get inFlight(): number {
    return this.waiters.size;
  }

  async close(): Promise<void> {
    await this.closeCreator();
    this.subscriber.disconnect();
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

async function postCall(
  api: { baseUrl: string; key: string },
  deviceId: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<string> {
  const response = await fetch(`${api.baseUrl}/api/v1/devices/${deviceId}/calls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tool, arguments: args }),
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await response.json()) as { id?: string };
  if (response.status !== 202 || !body.id) {
    throw new Error(`POST /devices/${deviceId}/calls: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.id;
}
