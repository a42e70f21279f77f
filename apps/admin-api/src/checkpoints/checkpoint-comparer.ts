import { Inject, Injectable } from '@nestjs/common';
import type { LogEntry } from '@fleet/audit-export';
import { ed25519Verifier, openNote, parseCheckpoint } from '@fleet/transparency';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { AuditSigner } from '../reports/audit-signer';
import type { CheckpointComparison, CheckpointFinding } from '../reports/integrity.service';
import { CheckpointRepository } from './checkpoint.repository';
import { CheckpointStore } from './checkpoint-store';

const PAGE = 5_000;

/**
 * DESIGN §6: the database against the latest checkpoint. Every seal the checkpoint committed must still be in its
 * device's chain with the same hash; the chain walk then proves the chain still extends it. A chain rewritten and
 * rehashed after the checkpoint, or cut back, is named here even when it hangs together.
 */
@Injectable()
export class CheckpointComparer {
  private readonly store: CheckpointStore;

  constructor(
    private readonly links: CheckpointRepository,
    private readonly signer: AuditSigner,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {
    this.store = new CheckpointStore(config.checkpointDir);
  }

  async compare(deviceId?: string): Promise<CheckpointComparison | null> {
    let loaded;
    try {
      loaded = await this.store.load();
    } catch (err) {
      return unreadable(
        this.config.CHECKPOINT_ORIGIN,
        `the log directory cannot be read: ${(err as Error).message}`,
      );
    }
    const { log, latest, size } = loaded;
    if (latest === null) return null;
    const origin = this.config.CHECKPOINT_ORIGIN;
    try {
      const verifier = ed25519Verifier(origin, this.signer.noteSigner(origin).verifier.publicKey);
      const checkpoint = parseCheckpoint(openNote(latest, [verifier]).note.text);
      if (!checkpoint.root.equals(log.root(size))) throw new Error('its entries do not hash to its root');
    } catch (err) {
      return unreadable(origin, `the latest checkpoint does not hold: ${(err as Error).message}`, size);
    }
    const entries = log.entries.filter((e) => deviceId === undefined || e.deviceId === deviceId);
    const problems: CheckpointFinding[] = [];
    for (let i = 0; i < entries.length; i += PAGE) {
      const page = entries.slice(i, i + PAGE);
      const stored = await this.links.hashesAt(page);
      for (const e of page) {
        const finding = compareOne(e, stored.get(`${e.deviceId}\u0000${e.seq}`));
        if (finding) problems.push(finding);
      }
    }
    return { origin, size, checkedLeaves: entries.length, problems };
  }
}

function compareOne(e: LogEntry, stored: string | undefined): CheckpointFinding | undefined {
  if (stored === undefined) {
    return {
      deviceId: e.deviceId,
      seq: e.seq,
      problem: 'checkpointed_link_missing',
      detail: 'a seal the checkpoint committed to is no longer in its chain',
    };
  }
  if (stored !== e.hash) {
    return {
      deviceId: e.deviceId,
      seq: e.seq,
      problem: 'checkpointed_link_changed',
      detail: 'the chain no longer extends the checkpointed seal: its link has another hash',
    };
  }
  return undefined;
}

function unreadable(origin: string, detail: string, size = 0): CheckpointComparison {
  return {
    origin,
    size,
    checkedLeaves: 0,
    problems: [{ deviceId: '', seq: '', problem: 'checkpoint_unreadable', detail }],
  };
}
