import { Inject, Injectable } from '@nestjs/common';
import { evidenceHash, GENESIS_HASH } from '@fleet/domain';
import { Gauge, type Registry } from '@fleet/telemetry';
import { METRICS_REGISTRY } from '../infra/tokens';
import { IntegrityRepository, type ChainRow } from './integrity.repository';

export type ChainProblem = 'hash_mismatch' | 'prev_hash_mismatch' | 'seq_gap' | 'head_mismatch';

export interface BrokenRow {
  deviceId: string;
  seq: string;
  evidenceId: string;
  callId: string;
  stage: string;
  problem: ChainProblem;
  detail: string;
}

export interface IntegrityReport {
  ok: boolean;
  checkedDevices: number;
  checkedRows: number;
  checkedHeads: number;
  /** The first broken row of each device whose chain is broken. */
  broken: BrokenRow[];
}

const PAGE = 5_000;

/**
 * DESIGN §6: re-walks every device's evidence chain from GENESIS_HASH in seq order, recomputing each row's
 * hash from its content, and checks the chain passes through every recorded head. Names the first row where
 * the chain breaks: the row whose content no longer matches its hash, or whose link or sequence is cut.
 */
@Injectable()
export class IntegrityService {
  /** The last whole-fleet check, for the alert rule on a broken chain (deploy/prometheus). */
  private readonly brokenChains: Gauge;
  private readonly checkedAt: Gauge;

  constructor(
    private readonly evidence: IntegrityRepository,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.brokenChains = new Gauge({
      name: 'admin_api_evidence_chains_broken',
      help: 'Devices whose evidence chain was broken at the last whole-fleet integrity check',
      registers: [registry],
    });
    this.checkedAt = new Gauge({
      name: 'admin_api_integrity_checked_timestamp_seconds',
      help: 'When the last whole-fleet integrity check finished (Unix time)',
      registers: [registry],
    });
  }

  async check(deviceId?: string): Promise<IntegrityReport> {
    const heads = new Map<string, string>();
    for (const h of await this.evidence.heads(deviceId)) heads.set(`${h.deviceId}/${h.seq}`, h.hash);
    const broken = new Map<string, BrokenRow>();
    const devices = new Set<string>();
    let rows = 0;
    let checkedHeads = 0;
    let chain = { deviceId: '', prev: GENESIS_HASH, seq: 0n };
    let after: { deviceId: string; seq: string } | undefined;
    for (;;) {
      const page = await this.evidence.page(PAGE, after, deviceId);
      for (const row of page) {
        rows++;
        if (row.deviceId !== chain.deviceId) {
          devices.add(row.deviceId);
          chain = { deviceId: row.deviceId, prev: GENESIS_HASH, seq: BigInt(row.seq) - 1n };
        }
        const head = heads.get(`${row.deviceId}/${row.seq}`);
        if (head !== undefined) checkedHeads++;
        const problem = broken.has(row.deviceId) ? undefined : this.verify(row, chain.prev, chain.seq, head);
        if (problem) broken.set(row.deviceId, problem);
        // Go on from what is stored, so one broken row does not hide whether the rest still links up.
        chain = { deviceId: row.deviceId, prev: row.hash, seq: BigInt(row.seq) };
      }
      const last = page[page.length - 1];
      if (!last || page.length < PAGE) break;
      after = { deviceId: last.deviceId, seq: last.seq };
    }
    if (deviceId === undefined) {
      this.brokenChains.set(broken.size);
      this.checkedAt.set(Date.now() / 1000);
    }
    return {
      ok: broken.size === 0,
      checkedDevices: devices.size,
      checkedRows: rows,
      checkedHeads,
      broken: [...broken.values()],
    };
  }

  private verify(
    row: ChainRow,
    prev: string,
    prevSeq: bigint,
    head: string | undefined,
  ): BrokenRow | undefined {
    const at = (problem: ChainProblem, detail: string): BrokenRow => ({
      deviceId: row.deviceId,
      seq: row.seq,
      evidenceId: row.id,
      callId: row.callId,
      stage: row.stage,
      problem,
      detail,
    });
    if (BigInt(row.seq) !== prevSeq + 1n) return at('seq_gap', `seq ${prevSeq + 1n} is missing before it`);
    if (row.prevHash !== prev)
      return at('prev_hash_mismatch', 'its link does not point at the row before it');
    const computed = evidenceHash(prev, {
      callId: row.callId,
      deviceId: row.deviceId,
      stage: row.stage,
      seq: BigInt(row.seq),
      payload: row.payload,
      createdAt: row.createdAt.toISOString(),
    });
    if (computed !== row.hash) return at('hash_mismatch', 'its content no longer matches its hash');
    if (head !== undefined && head !== row.hash)
      return at('head_mismatch', 'a recorded chain head disagrees');
    return undefined;
  }
}
