import { Inject, Injectable } from '@nestjs/common';
import { campaignActionTool, type CampaignState } from '@fleet/domain';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { approvalRefusal } from '../approvals/approval-refusal';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { Actor } from '../http/actor';
import { ApiError, conflict, notFound, unprocessable } from '../http/api-error';
import { Notices } from '../infra/notices';
import { Transactions, type Tx } from '../infra/transactions';
import { AnnouncementCampaignGate } from './announcement-campaign-gate';
import { actionIsGated, approvalSubject } from './campaign-approval';
import { CampaignTargetsRepository } from './campaign-targets.repository';
import { capabilityBindings } from './campaign-tool-gate';
import { CampaignToolsRepository } from './campaign-tools.repository';
import { CampaignsRepository, type CampaignRow } from './campaigns.repository';
import { CampaignsService, type CampaignView } from './campaigns.service';

const STEERABLE: CampaignState[] = ['draft', 'awaiting_approval', 'running', 'paused'];

/**
 * The API's half of DESIGN §3's state machine: draft → awaiting_approval → running ⇄ paused → cancelled
 * (completed and aborted are the runner's). Each step locks the campaign row, so a start racing an approval
 * or a cancel sees the other's result.
 */
@Injectable()
export class CampaignTransitionsService {
  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly targets: CampaignTargetsRepository,
    private readonly tools: CampaignToolsRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly reads: CampaignsService,
    private readonly transactions: Transactions,
    private readonly notices: Notices,
    private readonly announcementGate: AnnouncementCampaignGate,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  /** Runs at once when nobody needs to approve (targets frozen now); otherwise opens the approval. */
  async start(id: string): Promise<CampaignView> {
    const outcome = await this.transactions.run(async (tx) => {
      const c = await this.locked(tx, id, ['draft', 'awaiting_approval'], 'start');
      if (c.state === 'awaiting_approval') return { campaign: c, approvalId: await this.reopen(tx, c) };
      if (await actionIsGated(c.action, c.selector, this.tools, this.announcementGate)) {
        const approvalId = await this.openApproval(tx, c);
        return { campaign: (await this.campaigns.move(tx, id, ['draft'], 'awaiting_approval'))!, approvalId };
      }
      const frozen = await this.targets.freeze(tx, id, c.selector, await this.firmwareOf(c));
      if (frozen.pending + frozen.skipped === 0) {
        throw unprocessable('no_devices', 'the selector matches no active device; nothing to start');
      }
      return { campaign: (await this.campaigns.move(tx, id, ['draft'], 'running', { started: true }))! };
    });
    this.announce(outcome.campaign);
    if ('approvalId' in outcome && outcome.approvalId) {
      this.notices.event({
        type: 'approval',
        approvalId: outcome.approvalId,
        campaignId: id,
        state: 'pending',
        at: now(),
      });
      await this.notices.webhook('approval.waiting', {
        approvalId: outcome.approvalId,
        campaignId: id,
        name: outcome.campaign.name,
      });
    }
    return this.reads.view(outcome.campaign);
  }

  /** Another person than the creator approves; the target list is frozen in the same transaction. */
  async approve(actor: Actor, id: string, reason?: string): Promise<CampaignView> {
    const { campaign, approvalId } = await this.transactions.run(async (tx) => {
      const c = await this.locked(tx, id, ['awaiting_approval'], 'approve');
      const approvalId = (await this.approvals.idForCampaign(id, tx))!;
      await this.decide(tx, approvalId, actor, 'approved', reason);
      await this.targets.freeze(tx, id, c.selector, await this.firmwareOf(c));
      // DESIGN §4: the approval binds each device's tool as it is now, not whatever it declares later.
      await this.bindTools(tx, c);
      const moved = await this.campaigns.move(tx, id, ['awaiting_approval'], 'running', { started: true });
      return { campaign: moved!, approvalId };
    });
    this.announce(campaign, { approvalId, state: 'approved' });
    return this.reads.view(campaign);
  }

  /** A refused campaign is over: it is cancelled, with who refused it and why. */
  async reject(actor: Actor, id: string, reason: string): Promise<CampaignView> {
    const { campaign, approvalId } = await this.transactions.run(async (tx) => {
      await this.locked(tx, id, ['awaiting_approval'], 'reject');
      const approvalId = (await this.approvals.idForCampaign(id, tx))!;
      await this.decide(tx, approvalId, actor, 'rejected', reason);
      const why = `approval refused by ${actor.email}: ${reason}`;
      const moved = await this.campaigns.move(tx, id, ['awaiting_approval'], 'cancelled', {
        reason: why,
        finished: true,
      });
      return { campaign: moved!, approvalId };
    });
    this.announce(campaign, { approvalId, state: 'rejected' });
    return this.reads.view(campaign);
  }

  async pause(id: string, reason?: string): Promise<CampaignView> {
    const campaign = await this.step(id, ['running'], 'paused', 'pause', reason);
    await this.notices.webhook('campaign.paused', {
      campaignId: id,
      name: campaign.name,
      reason: reason ?? null,
    });
    return this.reads.view(campaign);
  }

  async resume(id: string): Promise<CampaignView> {
    return this.reads.view(await this.step(id, ['paused'], 'running', 'resume'));
  }

  /** Devices not started are cancelled too; the runner settles those in progress and sends nothing new. */
  async cancel(id: string, reason?: string): Promise<CampaignView> {
    const campaign = await this.transactions.run(async (tx) => {
      await this.locked(tx, id, STEERABLE, 'cancel');
      await this.targets.cancelPending(tx, id);
      return (await this.campaigns.move(tx, id, STEERABLE, 'cancelled', {
        reason: reason ?? null,
        finished: true,
      }))!;
    });
    this.announce(campaign);
    return this.reads.view(campaign);
  }

  private async step(id: string, from: CampaignState[], to: CampaignState, verb: string, reason?: string) {
    const campaign = await this.transactions.run(async (tx) => {
      await this.locked(tx, id, from, verb);
      return (await this.campaigns.move(tx, id, from, to, { reason: reason ?? null }))!;
    });
    this.announce(campaign);
    return campaign;
  }

  private async locked(tx: Tx, id: string, from: CampaignState[], verb: string): Promise<CampaignRow> {
    const c = await this.campaigns.get(id, tx, true);
    if (!c) throw notFound('campaign', id);
    if (!from.includes(c.state)) {
      throw conflict(
        'invalid_campaign_state',
        `the campaign is ${c.state}; ${verb} needs ${from.join(' or ')}`,
      );
    }
    return c;
  }

  private async decide(
    tx: Tx,
    approvalId: string,
    actor: Actor,
    state: 'approved' | 'rejected',
    reason?: string,
  ) {
    if (await this.approvals.decide(tx, approvalId, actor.operatorId, state, reason)) return;
    throw approvalRefusal(approvalId, await this.approvals.facts(approvalId, tx), actor.operatorId);
  }

  private openApproval(tx: Tx, c: CampaignRow): Promise<string> {
    // The creator asked for the campaign, so the creator is who may not approve it (DESIGN §3).
    return this.approvals.openForCampaign(tx, {
      campaignId: c.id,
      ...approvalSubject(c),
      requestedBy: c.createdBy,
      ttlS: this.config.CAMPAIGN_APPROVAL_TTL_S,
    });
  }

  /** A capability is carried out by another tool on each family: each device is bound to its own. */
  private async bindTools(tx: Tx, c: CampaignRow): Promise<void> {
    if (c.action.kind !== 'capability') return this.targets.bindTools(tx, c.id, campaignActionTool(c.action));
    const facts = await this.tools.ofCampaign(tx, c.id);
    await this.tools.bindHashes(tx, c.id, capabilityBindings(c.action, facts.devices, facts.profiles));
  }

  /** Starting a campaign whose approval lapsed asks again; one that is still pending stays as it is. */
  private async reopen(tx: Tx, c: CampaignRow): Promise<string | undefined> {
    const approvalId = await this.approvals.idForCampaign(c.id, tx);
    const facts = approvalId ? await this.approvals.facts(approvalId, tx) : undefined;
    if (facts && facts.state === 'pending' && !facts.lapsed) {
      throw conflict('approval_pending', 'the campaign already waits for approval');
    }
    return this.openApproval(tx, c);
  }

  private async firmwareOf(c: CampaignRow) {
    if (c.action.kind !== 'firmware') return undefined;
    const firmware = await this.campaigns.firmware(c.action.firmwareId);
    if (!firmware)
      throw new ApiError(
        409,
        'firmware_gone',
        `firmware ${c.action.firmwareId} is no longer in the registry`,
      );
    return firmware;
  }

  private announce(c: CampaignRow, approval?: { approvalId: string; state: 'approved' | 'rejected' }): void {
    this.notices.event({ type: 'campaign', campaignId: c.id, state: c.state, at: now() });
    if (approval) this.notices.event({ type: 'approval', ...approval, campaignId: c.id, at: now() });
  }
}

const now = () => new Date().toISOString();
