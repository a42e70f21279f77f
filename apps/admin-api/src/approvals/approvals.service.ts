import { Injectable } from '@nestjs/common';
import { CallRequests } from '@fleet/platform-client';
import { CampaignTransitionsService } from '../campaigns/campaign-transitions.service';
import type { Actor } from '../http/actor';
import { conflict, notFound } from '../http/api-error';
import { toPage, type Page } from '../http/cursor';
import { approvalCursor } from './approval-cursor';
import { approvalRefusal } from './approval-refusal';
import { ApprovalsRepository, type ApprovalFacts, type ApprovalRow } from './approvals.repository';
import { toolChangeSince } from './tool-change';

export interface Decision {
  id: string;
  state: 'approved' | 'rejected';
  callId: string | null;
  campaignId: string | null;
}

/**
 * The approval gate's human side. A call's approval is decided here and the orchestrator woken to go on
 * (or to seal `rejected`); a campaign's approval goes through the campaign, which freezes its targets.
 */
@Injectable()
export class ApprovalsService {
  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly campaigns: CampaignTransitionsService,
    private readonly calls: CallRequests,
  ) {}

  async list(
    state: string,
    limit: number,
    cursor?: [createdAt: string, id: string],
  ): Promise<Page<ApprovalRow>> {
    const before = cursor && { createdAt: cursor[0], id: cursor[1] };
    return toPage(await this.approvals.list(state, limit, before), limit, approvalCursor, (a) => [
      a.createdAt.toISOString(),
      a.id,
    ]);
  }

  async get(id: string): Promise<ApprovalRow> {
    const approval = await this.approvals.get(id);
    if (!approval) throw notFound('approval', id);
    return approval;
  }

  approve(actor: Actor, id: string, reason?: string): Promise<Decision> {
    return this.decide(actor, id, 'approved', reason);
  }

  reject(actor: Actor, id: string, reason: string): Promise<Decision> {
    return this.decide(actor, id, 'rejected', reason);
  }

  private async decide(
    actor: Actor,
    id: string,
    state: 'approved' | 'rejected',
    reason?: string,
  ): Promise<Decision> {
    const facts = await this.approvals.facts(id);
    if (facts?.campaignId) {
      const campaign =
        state === 'approved'
          ? await this.campaigns.approve(actor, facts.campaignId, reason)
          : await this.campaigns.reject(actor, facts.campaignId, reason ?? '');
      return { id, state, callId: null, campaignId: campaign.id };
    }
    if (state === 'approved' && decidable(facts, actor)) await this.refuseIfToolChanged(id);
    const decided = await this.approvals.decide(undefined, id, actor.operatorId, state, reason);
    if (!decided) throw approvalRefusal(id, facts, actor.operatorId);
    // The approval row is the record; the wake-up only saves the orchestrator waiting for its next sweep. The
    // orchestrator announces the decision when it acts on it (DESIGN §1: the call's one owner).
    if (decided.callId && decided.deviceId)
      await this.calls.wakeIfReachable(decided.callId, decided.deviceId);
    return { id, state, callId: decided.callId, campaignId: null };
  }

  /**
   * DESIGN §4: an approval binds the tool as pre-flight saw it. When the device has declared another definition
   * since, approving would not apply (the orchestrator voids it), so the approver is told so with a 409 and
   * nothing is recorded; the call is woken, and the orchestrator rejects it at once.
   */
  private async refuseIfToolChanged(id: string): Promise<void> {
    const seen = await this.approvals.toolThenAndNow(id);
    const change = seen && toolChangeSince(seen);
    if (!seen || !change) return;
    await this.calls.wakeIfReachable(seen.callId, seen.deviceId);
    throw conflict(
      'tool_changed',
      `${change}: an approval would not apply to it, so none was recorded; the call is rejected, and the ` +
        'requester may ask again for the tool as it is now',
    );
  }
}

/** A call's approval that another person could approve now, but for its tool (approvalRefusal says why not). */
function decidable(facts: ApprovalFacts | undefined, actor: Actor): boolean {
  return (
    facts !== undefined &&
    facts.callId !== null &&
    facts.state === 'pending' &&
    !facts.lapsed &&
    facts.requestedBy !== actor.operatorId &&
    !facts.callSettled &&
    !facts.awaitingPreflight &&
    !facts.callPastDeadline
  );
}
