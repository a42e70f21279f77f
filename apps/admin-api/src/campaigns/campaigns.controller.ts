import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import { Idempotent, IdempotencyKey } from '../idempotency/idempotent-requests';
import { CampaignReapprovalService } from './campaign-reapproval.service';
import { CampaignTransitionsService } from './campaign-transitions.service';
import {
  campaignListQuery,
  createCampaignBody,
  previewBody,
  previewView,
  targetListQuery,
  transitionBody,
  type CampaignSpec,
  type PreviewBody,
  type PreviewView,
} from './campaigns.schemas';
import { CampaignsService, type CampaignView } from './campaigns.service';

type Id = z.infer<typeof uuidParams>;
type Transition = z.infer<typeof transitionBody>;

@Controller('campaigns')
export class CampaignsController {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly transitions: CampaignTransitionsService,
    private readonly reapprovals: CampaignReapprovalService,
  ) {}

  @Post('preview')
  @HttpCode(200)
  @Roles('viewer')
  @Doc({
    summary: 'How many devices a selector matches now (nothing is written)',
    response: { status: 200, schema: previewView },
  })
  preview(@ValidBody(previewBody) body: PreviewBody): Promise<PreviewView> {
    return this.campaigns.preview(body);
  }

  @Post()
  @HttpCode(201)
  @Roles('operator')
  @Idempotent()
  @Audited('campaign.create', 'campaign')
  @Doc({ summary: 'Create a campaign (a draft: nothing runs until it is started)' })
  create(
    @CurrentActor() actor: Actor,
    @ValidBody(createCampaignBody) spec: CampaignSpec,
    @IdempotencyKey() key: string | undefined,
  ): Promise<CampaignView> {
    return this.campaigns.create(actor, spec, key);
  }

  @Get()
  @Roles('viewer')
  @Doc({ summary: 'Campaigns, newest first' })
  list(@ValidQuery(campaignListQuery) q: z.infer<typeof campaignListQuery>) {
    return this.campaigns.list(q.state, q.limit, q.cursor);
  }

  @Get(':id')
  @Roles('viewer')
  @Doc({ summary: 'A campaign with live progress counts by device state' })
  get(@ValidParams(uuidParams) p: Id): Promise<CampaignView> {
    return this.campaigns.get(p.id);
  }

  @Get(':id/targets')
  @Roles('viewer')
  @Doc({ summary: "The campaign's frozen device list with each device's state" })
  targets(@ValidParams(uuidParams) p: Id, @ValidQuery(targetListQuery) q: z.infer<typeof targetListQuery>) {
    return this.campaigns.targetList(p.id, q.state, q.limit, q.cursor);
  }

  // Every step takes an optional `reason`; start and resume keep it only in the audit event.
  @Post(':id/start')
  @HttpCode(200)
  @Roles('operator')
  @Idempotent()
  @Audited('campaign.start', 'campaign')
  @Doc({ summary: 'Start: runs at once, or waits for approval when the action is user-only' })
  start(@ValidParams(uuidParams) p: Id, @ValidBody(transitionBody) _b: Transition) {
    return this.transitions.start(p.id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Roles('operator')
  @Idempotent()
  @Audited('campaign.approve', 'campaign')
  @Doc({
    summary: 'Approve (another person than the creator); freezes the target list and starts the rollout',
  })
  approve(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: Id,
    @ValidBody(transitionBody) b: Transition,
  ) {
    return this.transitions.approve(actor, p.id, b?.reason);
  }

  @Post(':id/reapprove')
  @HttpCode(201)
  @Roles('operator')
  @Idempotent()
  @Audited('campaign.reapprove', 'campaign')
  @Doc({
    summary:
      'Ask approval again for the devices rejected because their tool changed since the approval: a new campaign ' +
      'with the same action and settings on exactly those devices, waiting for another person (409 when none is left)',
  })
  reapprove(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: Id,
    @ValidBody(transitionBody) _b: Transition,
  ): Promise<CampaignView> {
    return this.reapprovals.reapprove(actor, p.id);
  }

  @Post(':id/pause')
  @HttpCode(200)
  @Roles('operator')
  @Audited('campaign.pause', 'campaign')
  @Doc({ summary: 'Pause a running campaign (devices in progress finish; no new ones start)' })
  pause(@ValidParams(uuidParams) p: Id, @ValidBody(transitionBody) b: Transition) {
    return this.transitions.pause(p.id, b?.reason);
  }

  @Post(':id/resume')
  @HttpCode(200)
  @Roles('operator')
  @Audited('campaign.resume', 'campaign')
  @Doc({ summary: 'Resume a paused campaign' })
  resume(@ValidParams(uuidParams) p: Id, @ValidBody(transitionBody) _b: Transition) {
    return this.transitions.resume(p.id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Roles('operator')
  @Audited('campaign.cancel', 'campaign')
  @Doc({ summary: 'Cancel: devices not started are cancelled, nothing new is sent' })
  cancel(@ValidParams(uuidParams) p: Id, @ValidBody(transitionBody) b: Transition) {
    return this.transitions.cancel(p.id, b?.reason);
  }
}
