import { Inject, Injectable } from '@nestjs/common';
import { VERDICT_MEANING } from '@fleet/domain';
import { CallRequests } from '@fleet/platform-client';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { AuditedWrite } from '../audit/audited-write';
import type { Actor } from '../http/actor';
import { conflict, notFound } from '../http/api-error';
import { refusal, UNAVAILABLE_STATUSES } from './call-refusal';
import { toPage, type Page } from '../http/cursor';
import { CallsRepository, type CallRow, type CallSummaryRow } from './calls.repository';
import { callCursor, type CallCreatedView, type CallListQuery, type CreateCallBody } from './calls.schemas';
import { operatorCallRequest } from './operator-call-request';
import { PreflightWait } from './preflight-wait';
import { evidenceView, type EvidenceView } from './evidence-view';
import { UpgradeRegressionRepository, type RolledBackLater } from './upgrade-regression.repository';

export type CallView = CallRow & {
  verdictMeaning: string | null;
  evidence: EvidenceView;
  /** DESIGN §5: a verified upgrade the device later came back from on an older version (null: none seen). */
  rolledBackLater: RolledBackLater | null;
};

/**
 * An operator's calls. The API only asks (CallRequests writes the call row, then wakes the orchestrator); the
 * orchestrator runs the call, writes its evidence and verdict, and is the one that announces it (DESIGN §1: one
 * owner of a call's state), and opens a user-only call's approval once pre-flight has passed it (DESIGN §4).
 */
@Injectable()
export class CallsService {
  constructor(
    private readonly calls: CallsRepository,
    private readonly regressions: UpgradeRegressionRepository,
    private readonly requests: CallRequests,
    private readonly preflight: PreflightWait,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  async create(
    actor: Actor,
    deviceId: string,
    body: CreateCallBody,
    idempotencyKey?: string,
    audit?: AuditedWrite,
  ): Promise<CallCreatedView> {
    const result = await this.requests.requestValid(
      operatorCallRequest(actor, deviceId, body, idempotencyKey, this.config.CALL_APPROVAL_TTL_S),
      { refuseDeviceStatuses: UNAVAILABLE_STATUSES, ...(audit ? { audit: audit.row } : {}) },
    );
    if (result.ok && result.audited && audit) audit.written = true;
    if (!result.ok) throw refusal(deviceId, result);
    const settled = await this.afterPreflight(result.callId, result.state);
    return {
      id: result.callId,
      ...settled,
      // Accepted all the same: the row is the record, and the orchestrator's sweep runs a queued call whose
      // wake-up never reached it (within seconds of the queue being back).
      ...(result.wakeDeferred
        ? { note: 'recorded; the call queue is unreachable, so it runs once the queue is back' }
        : {}),
    };
  }

  /**
   * DESIGN §4: a user-only call is answered once pre-flight has spoken: refused, with its sealed verdict (nobody
   * was asked); passed, with the approval it opened. Another call's state is answered as it is.
   */
  async afterPreflight(
    callId: string,
    state: CallCreatedView['state'],
  ): Promise<Pick<CallCreatedView, 'state' | 'approvalId' | 'verdict' | 'verdictReason'>> {
    if (state !== 'awaiting_approval') return { state };
    const standing = await this.preflight.settle(callId);
    return {
      state: standing.state,
      ...(standing.approvalId ? { approvalId: standing.approvalId } : {}),
      ...(standing.verdict ? { verdict: standing.verdict } : {}),
      ...(standing.verdictReason ? { verdictReason: standing.verdictReason } : {}),
    };
  }

  async get(id: string): Promise<CallView> {
    const call = await this.calls.get(id);
    if (!call) throw notFound('call', id);
    const [rows, rolledBackLater] = await Promise.all([
      this.calls.evidence(id),
      call.tool === 'self.upgrade_firmware' ? this.regressions.ofCall(id) : Promise.resolve(null),
    ]);
    return {
      ...call,
      verdictMeaning: call.verdict ? VERDICT_MEANING[call.verdict] : null,
      evidence: evidenceView(rows),
      rolledBackLater,
    };
  }

  /** `groupIds`: the bounds of a group-scoped key (only its devices' calls are listed); absent: every call. */
  async list(q: CallListQuery, groupIds?: readonly string[]): Promise<Page<CallSummaryRow>> {
    if (groupIds?.length === 0) return { items: [], nextCursor: null };
    const before = q.cursor && { createdAt: q.cursor[0], id: q.cursor[1] };
    return toPage(await this.calls.list(q, before, groupIds), q.limit, callCursor, (c) => [
      c.createdAt.toISOString(),
      c.id,
    ]);
  }

  async cancel(
    actor: Actor,
    id: string,
    reason: string,
  ): Promise<{ id: string; state: 'finished'; cancelledBy: string }> {
    const cancelled = await this.calls.cancel(id, actor.operatorId, reason);
    if (!cancelled) {
      if (!(await this.calls.get(id))) throw notFound('call', id);
      throw conflict(
        'call_not_cancellable',
        'already sent or finished: only a call not yet sent can be cancelled',
      );
    }
    // The orchestrator writes the evidence rows and seals `cancelled` when it wakes.
    await this.requests.wakeIfReachable(id, cancelled.deviceId);
    return { id, state: 'finished', cancelledBy: actor.operatorId };
  }
}
