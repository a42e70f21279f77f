import { EVIDENCE_STAGES, type CallState, type EvidenceStage, type Verdict } from '@fleet/domain';
import { openCallApproval } from '@fleet/platform-client';
import { inSpan } from '@fleet/telemetry';
import type { CommitQueue, SealInput, UnitTx } from '../evidence/commit-queue';
import type { CallRecord } from './call-record';
import { decisionRow, effectNotApplicable, parametersNotChecked, responseNotSent } from './evidence-builders';

export type StageRows = Partial<Record<EvidenceStage, unknown>>;

export interface Conclusion {
  verdict: Verdict;
  reason: string;
  /** What the device answered, for quick readers (text, isError). */
  result?: Record<string, unknown>;
  rows: StageRows;
}

/** The pipeline's writes, each one unit of the commit queue (under the partition lease, group-committed). */
export class CallWrites {
  constructor(
    private readonly commits: CommitQueue,
    /** Called once a verdict is committed (metrics, live events, campaign progress). */
    private readonly onSealed: (call: CallRecord, conclusion: Conclusion) => void,
    private readonly approvalTtlMs = 3600_000,
  ) {}

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

  private sealNow(call: CallRecord, conclusion: Conclusion): Promise<boolean> {
    return this.commits
      .submit(call.partition, async (tx) => {
        // DESIGN §6: the row and its seal link in the chain get the same verdict, reason and time.
        const seal: SealInput = {
          verdict: conclusion.verdict,
          reason: conclusion.reason,
          sealedAt: new Date(),
        };
        const { rowCount } = await tx.query(
          `UPDATE call SET state = 'finished', verdict = $2, verdict_reason = $3, result = $4, sealed_at = $5
          WHERE id = $1 AND verdict IS NULL`,
          [
            call.id,
            seal.verdict,
            seal.reason,
            conclusion.result ? JSON.stringify(conclusion.result) : null,
            seal.sealedAt,
          ],
        );
        if (!rowCount) return false;
        await this.append(tx, call, completeRows(call, conclusion), seal);
        return true;
      })
      .then((sealed) => {
        if (sealed) {
          call.verdict = conclusion.verdict;
          call.state = 'finished';
          this.onSealed(call, conclusion);
        }
        return sealed;
      });
  }

  /**
   * A user-only operator call whose approval could not be opened when it was requested (its catalog was not known
   * yet): opens it now, with the state and the rows that exist so far. Returns the approval id, or false.
   */
  parkAwaitingApproval(call: CallRecord, rows: StageRows): Promise<string | false> {
    return this.commits.submit(call.partition, async (tx) => {
      const { rowCount } = await tx.query(
        `UPDATE call SET state = 'awaiting_approval' WHERE id = $1 AND verdict IS NULL AND cancelled_by IS NULL`,
        [call.id],
      );
      if (!rowCount || !call.operatorId) return false;
      const approvalId = await openCallApproval(tx, {
        id: call.id,
        deviceId: call.deviceId,
        tool: call.tool,
        arguments: call.arguments,
        operatorId: call.operatorId,
        ttlMs: this.approvalTtlMs,
      });
      await this.append(tx, call, rows);
      call.state = 'awaiting_approval';
      return approvalId;
    });
  }

  /** Moves the call to a waiting state, writing rows whose stage has happened already. */
  park(call: CallRecord, state: CallState, rows: StageRows, effectDeadlineAt?: Date): Promise<boolean> {
    return this.commits.submit(call.partition, async (tx) => {
      const { rowCount } = await tx.query(
        `UPDATE call SET state = $2, effect_deadline_at = coalesce($3, effect_deadline_at)
          WHERE id = $1 AND verdict IS NULL AND cancelled_by IS NULL`,
        [call.id, state, effectDeadlineAt ?? null],
      );
      if (!rowCount) return false;
      await this.append(tx, call, rows);
      call.state = state;
      return true;
    });
  }

  /**
   * The "sending" row, written before anything is published (DESIGN §3): once it is committed the call can never
   * be sent again by anyone, nor cancelled. Fails (false) when the call was cancelled or sealed meanwhile.
   */
  markSending(
    call: CallRecord,
    jsonrpcId: number | null,
    connectionId: string | undefined,
    catalogVersionId: string | undefined,
    rows: StageRows,
  ): Promise<boolean> {
    return this.commits.submit(call.partition, async (tx) => {
      const { rowCount } = await tx.query(
        `UPDATE call SET state = 'sending', jsonrpc_id = $2, connection_id = $3, catalog_version_id = $4, sent_at = now()
          WHERE id = $1 AND verdict IS NULL AND cancelled_by IS NULL
            AND state IN ('queued', 'waiting_for_device', 'awaiting_approval')`,
        [call.id, jsonrpcId, connectionId ?? null, catalogVersionId ?? null],
      );
      if (!rowCount) return false;
      await this.append(tx, call, rows);
      call.state = 'sending';
      call.jsonrpcId = jsonrpcId;
      call.connectionId = connectionId ?? null;
      call.sentAt = new Date();
      return true;
    });
  }

  private async append(tx: UnitTx, call: CallRecord, rows: StageRows, seal?: SealInput): Promise<void> {
    const fresh = EVIDENCE_STAGES.filter((stage) => rows[stage] !== undefined && !call.written.has(stage));
    await tx.appendEvidence(
      call.id,
      call.deviceId,
      fresh.map((stage) => ({ stage, payload: rows[stage] })),
      seal,
    );
    for (const stage of fresh) call.written.add(stage);
  }
}

function completeRows(call: CallRecord, c: Conclusion): StageRows {
  const notSent =
    c.verdict === 'rejected' ||
    c.verdict === 'invalid_arguments' ||
    c.verdict === 'undelivered' ||
    c.verdict === 'expired' ||
    c.verdict === 'cancelled';
  const why = `${c.verdict}: ${c.reason}`;
  const outcome =
    c.verdict === 'expired' ||
    c.verdict === 'cancelled' ||
    c.verdict === 'undelivered' ||
    c.verdict === 'rejected'
      ? c.verdict
      : 'rejected';
  return {
    discovery: c.rows.discovery ?? {
      board: null,
      firmwareVersion: null,
      catalog: null,
      tool: null,
      note: why,
    },
    decision: c.rows.decision ?? decisionRow(call, notSent ? outcome : 'allowed', [], { reason: c.reason }),
    parameters: c.rows.parameters ?? parametersNotChecked(call, why),
    response: c.rows.response ?? responseNotSent(why),
    effect: c.rows.effect ?? effectNotApplicable(notSent ? `not sent (${why})` : c.reason),
  };
}
