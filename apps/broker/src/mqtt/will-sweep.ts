import type { Aedes } from 'aedes';
import type { Logger } from '@fleet/telemetry';
import type { BrokerMetrics } from '../broker-metrics';
import { internals } from './aedes-internals';
import { wrapUplink } from './uplink-wrapper';
import { judgeStrandedWill, type StoredWill } from './will-rights';

export interface WillSweepDeps {
  aedes: Aedes;
  brokerId: string;
  /** Replicas whose heartbeat is current (Postgres, as replica liveness sees them). */
  liveReplicas: () => Promise<Set<string>>;
  metrics: BrokerMetrics;
  logger: Logger;
}

/**
 * Wills a broker died holding (DESIGN §7: replicas share sessions through Redis, so a SIGKILLed replica leaves its
 * clients' wills there under its id). aedes' own sweep would hand each to authorizePublish without a client, which
 * refuses it, and stop there: the first such will blocked every one behind it, for good. This sweep takes over:
 * each will is judged by its device's rights, published as that device's uplink when they allow it, and deleted
 * either way; one that fails is counted and the sweep goes on.
 *
 * Whose wills: on start, those left under this broker's own id by its earlier life (before any client can
 * connect); then, on every round, those of replicas whose heartbeat ran out, swept by the live replica with the
 * smallest id only, so that two replicas do not publish the same will.
 */
export class WillSweep {
  private readonly streamWill: (brokers?: Record<string, unknown>) => AsyncIterable<StoredWill>;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: WillSweepDeps) {
    const persistence = internals(deps.aedes).persistence;
    this.streamWill = persistence.streamWill.bind(persistence);
    // aedes' sweep (every 4 heartbeats) now finds nothing to do.
    persistence.streamWill = () => noWills();
  }

  /** Sweeps this broker's earlier life (awaited: before listeners open), then every `periodMs`. */
  async start(periodMs: number): Promise<void> {
    await this.sweep({ ownEarlierLife: true }).catch((err: unknown) => {
      this.deps.logger.warn({ err }, 'wills of an earlier life not swept (Redis or Postgres unavailable)');
    });
    this.timer = setInterval(() => {
      this.round = this.sweep({ ownEarlierLife: false }).catch((err: unknown) => {
        this.deps.logger.warn({ err }, 'will sweep failed; the next round tries again');
      });
    }, periodMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.round;
  }

  /** One round; resolves to how many wills it handled. */
  async sweep({ ownEarlierLife }: { ownEarlierLife: boolean }): Promise<number> {
    const { brokerId } = this.deps;
    const live = await this.deps.liveReplicas();
    live.add(brokerId);
    const sweepsOthers = [...live].sort()[0] === brokerId;
    if (!sweepsOthers && !ownEarlierLife) return 0;
    let handled = 0;
    for await (const will of this.streamWill()) {
      const owner = typeof will.brokerId === 'string' ? will.brokerId : '';
      const stranded = owner === brokerId ? ownEarlierLife : sweepsOthers && !live.has(owner);
      if (!stranded) continue;
      await this.handle(will, owner);
      handled++;
    }
    return handled;
  }

  private async handle(will: StoredWill, owner: string): Promise<void> {
    const { aedes, metrics, logger } = this.deps;
    try {
      // Deleted first: a will is published at most once, even if the publish below is the last thing this
      // replica does.
      await internals(aedes).persistence.delWill({ id: String(will.clientId), brokerId: owner });
      const judged = judgeStrandedWill(will);
      if (!judged.ok) {
        metrics.strandedWills.inc({ outcome: judged.reason });
        logger.info({ broker: owner, reason: judged.reason }, 'will of a gone broker refused and deleted');
        return;
      }
      const wrapped = wrapUplink(judged.mac, judged.connectionId, judged.payload);
      await new Promise<void>((resolve, reject) =>
        aedes.publish(
          {
            cmd: 'publish',
            topic: wrapped.topic,
            payload: wrapped.payload,
            qos: 0,
            retain: false,
            dup: false,
          },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
      metrics.uplinks.inc({ kind: wrapped.kind });
      metrics.strandedWills.inc({ outcome: 'published' });
    } catch (err) {
      metrics.strandedWills.inc({ outcome: 'failed' });
      logger.warn({ err, broker: owner }, 'will of a gone broker not handled');
    }
  }
}

async function* noWills(): AsyncGenerator<StoredWill> {}
