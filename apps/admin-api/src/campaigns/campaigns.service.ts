import { Injectable } from '@nestjs/common';
import type { CampaignSpec, CampaignState } from '@fleet/domain';
import type { Actor } from '../http/actor';
import { notFound, unprocessable } from '../http/api-error';
import { toPage, type Page } from '../http/cursor';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { CampaignTargetsRepository, type Progress, type TargetRow } from './campaign-targets.repository';
import { CampaignsRepository, type CampaignRow } from './campaigns.repository';
import { campaignCursor, targetCursor, type PreviewBody, type PreviewView } from './campaigns.schemas';
import { AnnouncementCampaignGate } from './announcement-campaign-gate';
import { actionIsGated } from './campaign-approval';
import { CampaignToolsRepository } from './campaign-tools.repository';
import { definitionSha256 } from './campaign-seal';

export type CampaignView = CampaignRow & {
  progress: Progress;
  approvalId: string | null;
  definitionSha256: string | null;
};

/** Creating, reading and previewing campaigns. Running them is the orchestrator's campaign runner. */
@Injectable()
export class CampaignsService {
  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly targets: CampaignTargetsRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly tools: CampaignToolsRepository,
    private readonly announcementGate: AnnouncementCampaignGate,
  ) {}

  async preview(body: PreviewBody): Promise<PreviewView> {
    const firmware =
      body.action?.kind === 'firmware' ? await this.firmware(body.action.firmwareId) : undefined;
    const counts = await this.targets.preview(body.selector, firmware);
    return {
      matched: counts.matched,
      online: counts.online,
      byBoard: counts.byBoard,
      byFirmware: counts.byFirmware,
      byDialect: counts.byDialect,
      sample: counts.sample,
      ...(body.action
        ? {
            needsApproval: await actionIsGated(body.action, body.selector, this.tools, this.announcementGate),
          }
        : {}),
      ...(firmware ? { willSkip: counts.willSkip } : {}),
    };
  }

  async create(actor: Actor, spec: CampaignSpec, idempotencyKey?: string): Promise<CampaignView> {
    if (spec.action.kind === 'firmware') await this.firmware(spec.action.firmwareId);
    if (spec.action.kind === 'announcement') await this.announcementGate.admit(actor, spec.action);
    const key = idempotencyKey ? `operator:${actor.operatorId}:${idempotencyKey}` : undefined;
    return this.view(await this.campaigns.create(spec, actor.operatorId, key));
  }

  async get(id: string): Promise<CampaignView> {
    const campaign = await this.campaigns.get(id);
    if (!campaign) throw notFound('campaign', id);
    return this.view(campaign);
  }

  async list(
    state: CampaignState | undefined,
    limit: number,
    cursor?: [createdAt: string, id: string],
  ): Promise<Page<CampaignRow>> {
    const before = cursor && { createdAt: cursor[0], id: cursor[1] };
    return toPage(await this.campaigns.list(state, limit, before), limit, campaignCursor, (c) => [
      c.createdAt.toISOString(),
      c.id,
    ]);
  }

  async targetList(
    id: string,
    state: string | undefined,
    limit: number,
    cursor?: [deviceId: string],
  ): Promise<Page<TargetRow>> {
    await this.get(id);
    return toPage(await this.targets.list(id, state, limit, cursor?.[0]), limit, targetCursor, (t) => [
      t.deviceId,
    ]);
  }

  async view(campaign: CampaignRow): Promise<CampaignView> {
    const [progress, approvalId] = await Promise.all([
      this.targets.progress(campaign.id),
      this.approvals.idForCampaign(campaign.id),
    ]);
    return {
      ...campaign,
      progress,
      approvalId: approvalId ?? null,
      definitionSha256: definitionSha256(campaign),
    };
  }

  private async firmware(firmwareId: string) {
    const firmware = await this.campaigns.firmware(firmwareId);
    if (!firmware)
      throw unprocessable(
        'unknown_firmware',
        `no firmware ${firmwareId} in the registry`,
        'body.action.firmwareId',
      );
    return firmware;
  }
}
