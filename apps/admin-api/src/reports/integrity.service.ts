import { Inject, Injectable } from '@nestjs/common';
import type { SealSignatureProblem } from '@fleet/audit-export';
import { ChainWalk, sealMismatches, type ChainBreak, type SealField } from '@fleet/domain';
import { Counter, Gauge, type Registry } from '@fleet/telemetry';
import { METRICS_REGISTRY } from '../infra/tokens';
import { CheckpointComparer } from '../checkpoints/checkpoint-comparer';
import { IntegrityRepository, type ChainRow, type SealRow } from './integrity.repository';
import { SealKeys } from './seal-keys';

export interface BrokenRow extends ChainBreak {
  evidenceId: string;
}

export interface SealProblem {
  callId: string;
  deviceId: string;
  /** The call row's field that no longer says what its seal says (`seal`: the seal is missing or unreadable). */
  field: SealField;
  call: string | null;
  seal: string | null;
  detail: string;
  /** The seal link, when there is one. */
  sealSeq: string | null;
  evidenceId: string | null;
}

/** A seal link not signed by a key the deployment lists (DESIGN §6: who wrote it is not proven). */
export interface SealSignatureFinding {
  callId: string;
  deviceId: string;
  sealSeq: string;
  evidenceId: string;
  problem: SealSignatureProblem;
  detail: string;
}

export interface CheckpointFinding {
  deviceId: string;
  seq: string;
  problem: 'checkpoint_unreadable' | 'checkpointed_link_missing' | 'checkpointed_link_changed';
  detail: string;
}

export interface CheckpointComparison {
  origin: string;
  size: number;
  checkedLeaves: number;
  problems: CheckpointFinding[];
}

export interface IntegrityReport {
  ok: boolean;
  checkedDevices: number;
  checkedRows: number;
  checkedHeads: number;
  checkedSeals: number;
  /** The first broken row of each device whose chain is broken. */
  broken: BrokenRow[];
  /** Every sealed call whose row differs from its seal, field by field (the first MAX_LISTED). */
  sealMismatches: SealProblem[];
  sealMismatchCount: number;
  /** Seal links whose signature does not hold under a listed key (the first MAX_LISTED). */
  sealSignatureProblems: SealSignatureFinding[];
  sealSignatureProblemCount: number;
  /** The latest checkpoint against the database; null before the first one. */
  checkpoint: CheckpointComparison | null;
}

const PAGE = 5_000;
const MAX_LISTED = 1_000;

/**
 * DESIGN §6: re-walks every device's evidence chain (seal links included) from GENESIS_HASH in seq order,
 * recomputing each hash, and checks it passes through every recorded head; then compares every sealed call row
 * with its seal. Names the first row where each chain breaks, and every call and field that does not fit.
 */
@Injectable()
export class IntegrityService {
  private readonly failures: Counter;
  /** The last whole-fleet check, for the alert rules on broken evidence (deploy/prometheus). */
  private readonly brokenChains: Gauge;
  private readonly mismatchedSeals: Gauge;
  private readonly checkedAt: Gauge;

  constructor(
    private readonly evidence: IntegrityRepository,
    private readonly sealKeys: SealKeys,
    private readonly checkpoints: CheckpointComparer,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.failures = new Counter({
      name: 'admin_api_integrity_failures_total',
      help: 'Problems integrity checks found: broken chains by problem, and sealed calls that differ from their seal',
      labelNames: ['problem'],
      registers: [registry],
    });
    this.brokenChains = new Gauge({
      name: 'admin_api_evidence_chains_broken',
      help: 'Devices whose evidence chain was broken at the last whole-fleet integrity check',
      registers: [registry],
    });
    this.mismatchedSeals = new Gauge({
      name: 'admin_api_sealed_calls_mismatched',
      help: 'Sealed calls whose row differed from their seal at the last whole-fleet integrity check',
      registers: [registry],
    });
    this.checkedAt = new Gauge({
      name: 'admin_api_integrity_checked_timestamp_seconds',
      help: 'When the last whole-fleet integrity check finished (Unix time)',
      registers: [registry],
    });
  }

  async check(deviceId?: string): Promise<IntegrityReport> {
    const [chains, seals] = [await this.walkChains(deviceId), await this.compareSeals(deviceId)];
    const checkpoint = await this.checkpoints.compare(deviceId);
    for (const p of checkpoint?.problems ?? []) this.failures.inc({ problem: p.problem });
    for (const b of chains.broken) this.failures.inc({ problem: b.problem });
    if (seals.count > 0) this.failures.inc({ problem: 'seal_mismatch' }, seals.count);
    for (const [problem, n] of seals.signatureCounts) this.failures.inc({ problem }, n);
    if (deviceId === undefined) {
      this.brokenChains.set(chains.broken.length);
      this.mismatchedSeals.set(seals.count);
      this.checkedAt.set(Date.now() / 1000);
    }
    return {
      ok:
        chains.broken.length === 0 &&
        seals.count === 0 &&
        seals.signatureCount === 0 &&
        (checkpoint?.problems.length ?? 0) === 0,
      checkedDevices: chains.devices,
      checkedRows: chains.rows,
      checkedHeads: chains.heads,
      checkedSeals: seals.checked,
      broken: chains.broken,
      sealMismatches: seals.listed,
      sealMismatchCount: seals.count,
      sealSignatureProblems: seals.signatures,
      sealSignatureProblemCount: seals.signatureCount,
      checkpoint,
    };
  }

  private async walkChains(deviceId?: string) {
    const heads = new Map<string, string>();
    for (const h of await this.evidence.heads(deviceId)) heads.set(`${h.deviceId}/${h.seq}`, h.hash);
    const walk = new ChainWalk((device, seq) => heads.get(`${device}/${seq}`));
    const broken: BrokenRow[] = [];
    let after: { deviceId: string; seq: string } | undefined;
    for (;;) {
      const page = await this.evidence.page(PAGE, after, deviceId);
      for (const row of page) {
        const problem = walk.next(linkOf(row));
        if (problem) broken.push({ ...problem, evidenceId: row.id });
      }
      const last = page[page.length - 1];
      if (!last || page.length < PAGE) break;
      after = { deviceId: last.deviceId, seq: last.seq };
    }
    return { broken, devices: walk.devices, rows: walk.links, heads: walk.headsChecked };
  }

  private async compareSeals(deviceId?: string) {
    const listed: SealProblem[] = [];
    const signatures: SealSignatureFinding[] = [];
    const signatureCounts = new Map<SealSignatureProblem, number>();
    let count = 0;
    let checked = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.evidence.seals(PAGE, after, deviceId);
      for (const row of page) {
        checked++;
        for (const m of mismatchesOf(row)) {
          count++;
          if (listed.length < MAX_LISTED) listed.push(m);
        }
        const unsigned = this.signatureOf(row);
        if (unsigned) {
          signatureCounts.set(unsigned.problem, (signatureCounts.get(unsigned.problem) ?? 0) + 1);
          if (signatures.length < MAX_LISTED) signatures.push(unsigned);
        }
      }
      const last = page[page.length - 1];
      if (!last || page.length < PAGE) break;
      after = last.callId;
    }
    const signatureCount = [...signatureCounts.values()].reduce((a, b) => a + b, 0);
    return { listed, count, checked, signatures, signatureCount, signatureCounts };
  }

  /** DESIGN §6: a seal is the orchestrator's only under a key the deployment lists. */
  private signatureOf(row: SealRow): SealSignatureFinding | undefined {
    if (row.sealId === null || row.sealSeq === null || row.sealHash === null) return undefined;
    const verdict = this.sealKeys.ring.check(row.sealHash, row.sealKeyId, row.sealSignature);
    if (verdict.ok) return undefined;
    return {
      callId: row.callId,
      deviceId: row.sealDeviceId ?? row.deviceId,
      sealSeq: row.sealSeq,
      evidenceId: row.sealId,
      problem: verdict.problem,
      detail: verdict.detail,
    };
  }
}

function linkOf(row: ChainRow) {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

function mismatchesOf(row: SealRow): SealProblem[] {
  const seal =
    row.sealId === null ? undefined : { deviceId: row.sealDeviceId ?? '', payload: row.sealPayload };
  return sealMismatches(
    {
      callId: row.callId,
      deviceId: row.deviceId,
      verdict: row.verdict,
      reason: row.reason,
      sealedAt: row.sealedAt?.toISOString() ?? null,
    },
    seal,
  ).map((m) => ({ ...m, sealSeq: row.sealSeq, evidenceId: row.sealId }));
}
