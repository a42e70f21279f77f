import {
  callStateRepository as state,
  openCallApproval,
  recordPreflight,
  type CallTransition,
  type StepOutcome,
} from '@fleet/db';
import { EVIDENCE_STAGES, type EvidenceStage, type Verdict } from '@fleet/domain';
import { argumentsHash } from '@fleet/platform-client';
import { inSpan } from '@fleet/telemetry';
import type { CommitQueue, UnitTx } from '../evidence/commit-queue';
import type { CallRecord } from './call-record';
import { completeRows } from '../verification/evidence-rows';

export type StageRows = Partial<Record<EvidenceStage, unknown>>;

export interface Conclusion {
  verdict: Verdict;
  reason: string;
  /** What the device answered, for quick readers (text, isError). */
  result?: Record<string, unknown>;
  /** The device's status as this call read it, kept as its last status readback (not evidence). */
  deviceStatus?: unknown;
  rows: StageRows;
}

/** What pre-flight found, and what it was given under: an approval is bound to it (DESIGN §4). */
export interface PreflightFindings {
  findings: unknown;
  catalogVersionId: string;
  toolHash: string;
}

/** See CallWrites.markSent. */
const SENT_AFTER_MS = 50;

/**
 * The runner's writes of a call's state (the only ones, DESIGN §1), each a step of the commit queue (under the
 * partition lease, group-committed), each with the evidence rows whose stage has happened.
 */
export class CallWrites {
  constructor(
    private readonly commits: CommitQueue,
    private readonly hooks: {
      /** A verdict is committed (metrics, campaign progress). */
      onSealed: (call: CallRecord, conclusion: Conclusion) => void;
      /** A call began to wait, and its wait ends by `dueAt` unless someone acts (the sweep looks then). */
      onWaiting?: (dueAt: Date) => void;
    },
    private readonly approvalTtlMs = 3600_000,
    /** How long after its request left a call still waiting for its device is written `sent`. */
    private readonly sentAfterMs = SENT_AFTER_MS,
  ) {}

  /** Calls whose `sent` is due, by id: their next step writes instead. */
  private readonly sentDue = new Map<string, NodeJS.Timeout>();

  /**
   * Seals the verdict, writing first whichever of the five rows are still missing (DESIGN §1: all five, always;
   * the verdict last). Returns false when the call was sealed by someone else in the meantime.
   */
  seal(call: CallRecord, conclusion: Conclusion): Promise<boolean> {
    return inSpan(
      'evidence seal',
      { attributes: { 'call.id': call.id, 'call.verdict': conclusion.verdict } },
      () => this.sealNow(call, conclusion),
    );
  }

  private async sealNow(call: CallRecord, conclusion: Conclusion): Promise<boolean> {
    // DESIGN §6: the row and its seal link in the chain get the same verdict, reason and time.
    const { moved } = await this.move(call, completeRows(call, conclusion), {
      to: 'finished',
      verdict: conclusion.verdict,
      reason: conclusion.reason,
      result: conclusion.result,
      sealedAt: new Date(),
      ...(conclusion.deviceStatus === undefined ? {} : { deviceStatus: conclusion.deviceStatus }),
    });
    if (moved) {
      call.verdict = conclusion.verdict;
      call.state = 'finished';
      this.hooks.onSealed(call, conclusion);
    }
    return moved;
  }

  /**
   * A user-only call that passed pre-flight waits for a person: its approval (opened at creation, or now when the
   * catalog was not known then) is shown to people from here on, with what pre-flight found. Returns the
   * approval id when it was shown just now, true when it already was, false when the call moved on.
   */
  async awaitApproval(
    call: CallRecord,
    rows: StageRows,
    found: PreflightFindings,
  ): Promise<string | boolean> {
    let expiresAt = call.deadlineAt;
    const shown = await this.commits.submit(call.partition, async (tx) => {
      if (!(await state.awaitApproval(tx, call.id)) || !call.operatorId) return false;
      ({ expiresAt } = await openCallApproval(tx.db, {
        id: call.id,
        deviceId: call.deviceId,
        tool: call.tool,
        arguments: call.arguments,
        argumentsHash: argumentsHash(call.deviceId, call.tool, call.arguments),
        operatorId: call.operatorId,
        ttlMs: call.approvalTtlMs ?? this.approvalTtlMs,
      }));
      const shown = await recordPreflight(tx.db, call.id, {
        preflight: found.findings,
        catalogVersionId: found.catalogVersionId,
        toolHash: found.toolHash,
      });
      await this.append(tx, call, rows);
      call.state = 'awaiting_approval';
      return shown ?? true;
    });
    if (shown !== false) this.waitsUntil(call.deadlineAt, expiresAt);
    return shown;
  }

  /** Tells the sweep when the earliest of `ends` comes. */
  private waitsUntil(...ends: Date[]): void {
    this.hooks.onWaiting?.(new Date(Math.min(...ends.map((d) => d.getTime()))));
  }

  /** Moves the call to a waiting state, writing rows whose stage has happened already. */
  async park(
    call: CallRecord,
    to: 'waiting_for_device' | 'verifying',
    rows: StageRows,
    effectDeadlineAt?: Date,
  ): Promise<boolean> {
    const transition: CallTransition =
      to === 'verifying' ? { to, ...(effectDeadlineAt ? { effectDeadlineAt } : {}) } : { to };
    const { moved } = await this.move(call, rows, transition);
    if (!moved) return false;
    call.state = to;
    if (effectDeadlineAt) call.effectDeadlineAt = effectDeadlineAt;
    this.waitsUntil(to === 'verifying' && effectDeadlineAt ? effectDeadlineAt : call.deadlineAt);
    return true;
  }

  /**
   * The "sending" row, written before anything is published (DESIGN §3): once it is committed the call can never
   * be sent again by anyone, nor cancelled. Fails (false) when the call was cancelled or sealed meanwhile.
   */
  async markSending(
    call: CallRecord,
    jsonrpcId: number | null,
    connectionId: string | undefined,
    catalogVersionId: string | undefined,
    rows: StageRows,
  ): Promise<boolean> {
    const { moved, sentAt } = await this.move(call, rows, {
      to: 'sending',
      jsonrpcId,
      connectionId: connectionId ?? null,
      catalogVersionId: catalogVersionId ?? null,
    });
    if (!moved) return false;
    call.state = 'sending';
    call.jsonrpcId = jsonrpcId;
    call.connectionId = connectionId ?? null;
    call.sentAt = sentAt ?? new Date();
    return true;
  }

  /**
   * The request left for the device: the documented `sent` (no evidence row: the response row says when). Written
   * only if the call still waits for its device `sentAfterMs` later: a device that answers sooner moves the row
   * from `sending` to its next state directly, and a call whose answer takes longer shows `sent` while it waits.
   * Nothing reads `sent` but people (the sweep and cancellation treat it as `sending`), so a reply within that
   * moment saves every call a statement without hiding anything that lasts.
   */
  markSent(call: CallRecord, onError: (err: unknown) => void): void {
    const timer = setTimeout(() => {
      this.sentDue.delete(call.id);
      this.commits
        .step({
          partition: call.partition,
          callId: call.id,
          deviceId: call.deviceId,
          transition: { to: 'sent' },
          rows: [],
        })
        .then(({ moved }) => {
          if (moved && call.state === 'sending') call.state = 'sent';
        })
        .catch(onError);
    }, this.sentAfterMs);
    timer.unref();
    this.sentDue.set(call.id, timer);
  }

  /** One step: the state move with the rows of the stages not yet on disk, committed together. */
  private async move(call: CallRecord, rows: StageRows, transition: CallTransition): Promise<StepOutcome> {
    const sentDue = this.sentDue.get(call.id);
    if (sentDue) {
      clearTimeout(sentDue);
      this.sentDue.delete(call.id);
    }
    const fresh = EVIDENCE_STAGES.filter((stage) => rows[stage] !== undefined && !call.written.has(stage));
    const outcome = await this.commits.step({
      partition: call.partition,
      callId: call.id,
      deviceId: call.deviceId,
      transition,
      rows: fresh.map((stage) => ({ stage, payload: rows[stage] })),
    });
    if (outcome.moved) for (const stage of fresh) call.written.add(stage);
    return outcome;
  }

  private async append(tx: UnitTx, call: CallRecord, rows: StageRows): Promise<void> {
    const fresh = EVIDENCE_STAGES.filter((stage) => rows[stage] !== undefined && !call.written.has(stage));
    await tx.appendEvidence(
      call.id,
      call.deviceId,
      fresh.map((stage) => ({ stage, payload: rows[stage] })),
    );
    for (const stage of fresh) call.written.add(stage);
  }
}
