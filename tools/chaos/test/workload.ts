import { randomUUID } from 'node:crypto';
import type { Fleet } from '@fleet/device-sim';
import { api, type ApiAnswer } from './api-client';

/** A request the load made and whether the API took it (retries with the same Idempotency-Key until it did). */
export interface Asked {
  key: string;
  deviceId: string;
  /** The call or turn id, once the API accepted it. */
  id?: string;
  /** Every answer until the accepted one: how the API behaved under the fault. */
  answers: Pick<ApiAnswer, 'status' | 'ms'>[];
}

// 409 `idempotency_in_progress`: the first try is still running, or died running with the API process (its
// record is taken over after 60 s): a careful client waits and asks again.
const RETRYABLE = new Set([0, 409, 502, 503, 504]);
const GIVE_UP_MS = 150_000;

/**
 * Operator calls and voice turns from text, a few a second, through the admin API while a fault is on. A
 * refused or unanswered request is retried with the same Idempotency-Key (what a careful client does): a
 * retry must never make a second call, and a call accepted once must be sealed.
 */
export class Workload {
  readonly calls: Asked[] = [];
  readonly turns: Asked[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private round = 0;

  constructor(
    private readonly baseUrl: () => string,
    private readonly key: string,
    private readonly fleet: Fleet,
    private readonly everyMs = 300,
  ) {}

  start(): void {
    this.running = true;
    this.loops = [this.loop(() => this.askCall()), this.loop(() => this.askTurn(), this.everyMs * 5)];
  }

  /** Stops asking; resolves once every request in flight was accepted (or `deadline` passed). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(step: () => Promise<void>, everyMs = this.everyMs): Promise<void> {
    const inFlight: Promise<void>[] = [];
    while (this.running) {
      inFlight.push(step());
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await Promise.all(inFlight);
  }

  private device(): string {
    const devices = this.fleet.devices;
    return devices[this.round++ % devices.length]!.mac;
  }

  private askCall(): Promise<void> {
    const deviceId = this.device();
    const write = this.round % 2 === 0;
    const body = write
      ? { tool: 'self.audio_speaker.set_volume', arguments: { volume: 10 + (this.round % 80) } }
      : { tool: 'self.get_device_status', arguments: {} };
    const asked: Asked = { key: randomUUID(), deviceId, answers: [] };
    this.calls.push(asked);
    return this.until(asked, `/devices/${deviceId}/calls`, body);
  }

  private askTurn(): Promise<void> {
    const deviceId = this.device();
    const asked: Asked = { key: randomUUID(), deviceId, answers: [] };
    this.turns.push(asked);
    return this.until(asked, `/devices/${deviceId}/utterances`, { text: 'what is the volume' });
  }

  private async until(asked: Asked, path: string, body: unknown): Promise<void> {
    const deadline = Date.now() + GIVE_UP_MS;
    while (Date.now() < deadline) {
      const answer = await api(this.baseUrl(), this.key, 'POST', path, body, {
        'idempotency-key': asked.key,
      });
      asked.answers.push({ status: answer.status, ms: answer.ms });
      if (answer.status === 202 || answer.status === 201 || answer.status === 200) {
        asked.id = answer.body['id'] as string;
        return;
      }
      if (!RETRYABLE.has(answer.status)) return; // refused for a reason of its own: counted, not retried
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
