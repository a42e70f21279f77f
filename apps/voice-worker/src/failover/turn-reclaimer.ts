import type { Logger } from '@fleet/telemetry';
import type { TurnOwnershipRepository } from './turn-ownership.repository';
import type { TurnRescue } from './turn-rescue';
import type { WorkerLivenessRepository } from './worker-liveness.repository';

export interface TurnReclaimerSettings {
  /** How often this worker says it is alive. */
  heartbeatMs: number;
  /** How often it looks for turns nobody will answer. */
  sweepMs: number;
  /** A turn whose job no worker took for this long was lost (a Redis restart): it is answered too. */
  lostAfterMs: number;
}

/**
 * Keeps this worker's heartbeat and answers the turns of workers that stopped (voice turns are never lost
 * silently): on start those this worker id held in an earlier life, then every few seconds any open turn
 * whose worker's heartbeat ran out, or whose job nobody ever took.
 */
export class TurnReclaimer {
  private timers: NodeJS.Timeout[] = [];
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly liveness: WorkerLivenessRepository,
    private readonly ownership: TurnOwnershipRepository,
    private readonly rescue: TurnRescue,
    private readonly settings: TurnReclaimerSettings,
    private readonly logger: Logger,
  ) {}

  async start(startedAt: Date): Promise<void> {
    await this.liveness.beat();
    for (const turn of await this.ownership.heldBefore(startedAt)) {
      await this.rescue.answer(turn, 'this voice worker restarted in the middle of the turn');
    }
    this.timers = [
      setInterval(() => {
        this.liveness
          .beat()
          .catch((err: unknown) => this.logger.warn({ err }, 'voice worker heartbeat failed'));
      }, this.settings.heartbeatMs),
      setInterval(() => {
        this.sweeping = this.sweep().catch((err: unknown) => this.logger.warn({ err }, 'turn sweep failed'));
      }, this.settings.sweepMs),
    ];
    for (const t of this.timers) t.unref();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.sweeping;
    await this.liveness.leave().catch(() => undefined);
  }

  async sweep(): Promise<void> {
    for (const turn of await this.ownership.orphans(this.settings.lostAfterMs)) {
      await this.rescue.answer(
        turn,
        turn.workerId
          ? `its voice worker ${turn.workerId} stopped in the middle of the turn`
          : 'its job was lost before any voice worker took it',
      );
    }
  }
}
