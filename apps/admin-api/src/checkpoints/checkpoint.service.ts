import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { checkpointNote, type EvidenceLog, type LogEntry } from '@fleet/audit-export';
import { Counter, Gauge, type Logger, type Registry } from '@fleet/telemetry';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { LOGGER, METRICS_REGISTRY } from '../infra/tokens';
import { AuditSigner } from '../reports/audit-signer';
import { SealKeys } from '../reports/seal-keys';
import { CheckpointRepository } from './checkpoint.repository';
import { CheckpointStore } from './checkpoint-store';

/** A checkpoint as published, with the log it commits to and the one published before it. */
export interface PublishedCheckpoint {
  log: EvidenceLog;
  note: string;
  size: number;
  previous: { note: string; size: number } | null;
}

/**
 * DESIGN §6: at a fixed interval and at every signed export, the seal links committed since the last checkpoint
 * become leaves of the evidence log (in device, seq order) and the platform signs a C2SP checkpoint of it, written
 * to CHECKPOINT_DIR outside Postgres. Only seals signed by a listed orchestrator key enter the log: a history a
 * holder of fleet_app appended is left out and counted (and named by the integrity check).
 */
@Injectable()
export class CheckpointService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly store: CheckpointStore;
  private timer: NodeJS.Timeout | undefined;
  private readonly leftOut: Counter;
  private readonly size: Gauge;

  constructor(
    private readonly seals: CheckpointRepository,
    private readonly signer: AuditSigner,
    private readonly sealKeys: SealKeys,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.store = new CheckpointStore(config.checkpointDir);
    this.leftOut = new Counter({
      name: 'admin_api_checkpoint_seals_left_out_total',
      help: 'Seal links a checkpoint left out of the evidence log because no listed orchestrator key signed them',
      labelNames: ['problem'],
      registers: [registry],
    });
    this.size = new Gauge({
      name: 'admin_api_checkpoint_tree_size',
      help: 'Leaves (signed seals) of the evidence log at its latest checkpoint',
      registers: [registry],
    });
  }

  onApplicationBootstrap(): void {
    const every = this.config.CHECKPOINT_INTERVAL_MS;
    if (every > 0) this.timer = setInterval(() => void this.publishQuietly(), every);
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The log's verifier key string (the audit signing key under the log's origin): what a witness is given. */
  get logKey(): string {
    return this.signer.noteSigner(this.config.CHECKPOINT_ORIGIN).verifier.text;
  }

  /** Appends what was sealed since the last checkpoint and publishes a new one (or the last, when nothing was). */
  async publish(): Promise<PublishedCheckpoint> {
    return this.store.locked(async () => {
      const { log, latest, size } = await this.store.load();
      const fresh = await this.signedSealsAfter(log);
      if (latest !== null && fresh.length === 0) {
        return { log, note: latest, size, previous: await this.store.before(size) };
      }
      const previous = latest === null ? null : { note: latest, size };
      log.append(fresh);
      const origin = this.config.CHECKPOINT_ORIGIN;
      const note = checkpointNote(log, origin, this.signer.noteSigner(origin));
      await this.store.publish(log, note);
      this.size.set(log.size);
      return { log, note, size: log.size, previous };
    });
  }

  private async publishQuietly(): Promise<void> {
    try {
      await this.publish();
    } catch (err) {
      this.logger.warn({ err }, 'cannot publish an evidence checkpoint');
    }
  }

  private async signedSealsAfter(log: EvidenceLog): Promise<LogEntry[]> {
    const entries: LogEntry[] = [];
    for (const seal of await this.seals.sealsAfter(log.devices())) {
      const verdict = this.sealKeys.ring.check(seal.hash, seal.keyId, seal.signature);
      if (!verdict.ok) {
        this.leftOut.inc({ problem: verdict.problem });
        this.logger.warn(
          { deviceId: seal.deviceId, seq: seal.seq, problem: verdict.problem },
          'seal left out of the evidence log',
        );
        continue;
      }
      entries.push({ deviceId: seal.deviceId, seq: seal.seq, hash: seal.hash });
    }
    return entries;
  }
}
