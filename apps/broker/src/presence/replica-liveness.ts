import type { Aedes } from 'aedes';
import { encodePresenceEvent, fingerprintOfHash, fleetPresenceTopic } from '@fleet/protocol';
import type { Logger } from '@fleet/telemetry';
import type { BrokerMetrics } from '../broker-metrics';
import type { ClosedConnection, ReplicaLivenessRepository } from './replica-liveness.repository';

/**
 * Replica liveness: this broker beats every fifth of the TTL; on start it closes the rows it left open in an
 * earlier life (a SIGKILL and restart under the same BROKER_ID), and on every beat those of replicas whose
 * heartbeat ran out, so a dead replica's devices do not stay "online" for good. Presence follows: each closed
 * connection gets its `offline` event (the orchestrator ignores one for a connection its device has replaced).
 */
export class ReplicaLiveness {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private startedAt = new Date();
  private ownClosed = false;

  constructor(
    private readonly repository: ReplicaLivenessRepository,
    private readonly aedes: Aedes,
    private readonly metrics: BrokerMetrics,
    private readonly logger: Logger,
    private readonly ttlMs: number,
  ) {}

  /**
   * Beats once and closes this replica's own earlier rows before any device connects. With Postgres down the
   * broker starts all the same (devices need it less than presence does); the next rounds catch up.
   */
  async start(startedAt: Date): Promise<void> {
    this.startedAt = startedAt;
    await this.tick();
    this.timer = setInterval(
      () => {
        this.ticking = this.tick();
      },
      Math.max(100, Math.round(this.ttlMs / 5)),
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    await this.repository.leave().catch(() => undefined);
  }

  private async tick(): Promise<void> {
    try {
      this.announce(await this.repository.beatAndCloseDead(this.ttlMs), 'broker_lost');
      if (!this.ownClosed) {
        this.announce(await this.repository.closeOwnEarlier(this.startedAt), 'broker_restarted');
        this.ownClosed = true;
      }
    } catch (err) {
      this.logger.warn({ err }, 'replica liveness round failed');
      // The other replicas judge this one by its beat alone: a close that failed (a lock conflict) must not
      // take the beat down with it.
      await this.repository.beat().catch(() => undefined);
    }
  }

  private announce(closed: ClosedConnection[], reason: 'broker_lost' | 'broker_restarted'): void {
    if (closed.length === 0) return;
    const replicas = [...new Set(closed.map((c) => c.brokerId))];
    this.logger.warn(
      { replicas, connections: closed.length, reason },
      'closed the connections of a gone replica',
    );
    this.metrics.replicaConnectionsClosed.inc({ reason }, closed.length);
    const at = new Date().toISOString();
    for (const c of closed) {
      const event = encodePresenceEvent({
        mac: c.mac,
        connectionId: c.connectionId,
        clientIdFingerprint: fingerprintOfHash(c.clientIdHash),
        brokerId: c.brokerId,
        state: 'offline',
        reason,
        at,
        keepalive: c.keepalive,
      });
      if (!event.ok) continue;
      this.aedes.publish(
        {
          cmd: 'publish',
          topic: fleetPresenceTopic(c.mac),
          payload: Buffer.from(event.value),
          qos: 0,
          retain: false,
          dup: false,
        },
        () => undefined,
      );
    }
  }
}
