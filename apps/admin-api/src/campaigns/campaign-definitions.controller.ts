import { Controller, HttpCode, Patch, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams } from '../http/validation';
import { Idempotent } from '../idempotency/idempotent-requests';
import { CampaignDefinitionsService } from './campaign-definitions.service';
import { campaignEditBody, continueBody, rollbackBody, type CampaignEdit } from './campaign-edit.schemas';
import type { CampaignView } from './campaigns.service';

type Id = z.infer<typeof uuidParams>;

/** A campaign's definition: edited while a draft, sealed once started; continuing past a gate; rollbacks. */
@Controller('campaigns')
export class CampaignDefinitionsController {
  constructor(private readonly definitions: CampaignDefinitionsService) {}

  @Patch(':id')
  @Roles('operator')
  @Audited('campaign.edit', 'campaign')
  @Doc({
    summary: 'Edit a draft campaign (409 campaign_sealed once it was started or waits for approval)',
  })
  edit(
    @ValidParams(uuidParams) p: Id,
    @ValidBody(campaignEditBody) body: CampaignEdit,
  ): Promise<CampaignView> {
    return this.definitions.edit(p.id, body);
  }

  @Post(':id/continue')
  @HttpCode(200)
  @Roles('operator')
  @Audited('campaign.continue', 'campaign')
  @Doc({
    summary:
      'Let a phased campaign paused by a failed gate go on: the phase counts as passed by this person, with the ' +
      'reason recorded in its phase log (409 when no failed gate holds it)',
  })
  continue(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: Id,
    @ValidBody(continueBody) b: z.infer<typeof continueBody>,
  ): Promise<CampaignView> {
    return this.definitions.continuePastGate(actor, p.id, b.reason);
  }

  @Post(':id/rollback')
  @HttpCode(201)
  @Roles('operator')
  @Idempotent()
  @Audited('campaign.rollback', 'campaign')
  @Doc({
    summary:
      'Roll a firmware campaign back in one step: a new campaign, linked by rollbackOf, taking the devices it ' +
      'started back to the image they ran before, started at once (waiting for approval when the upgrade is gated)',
  })
  rollback(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: Id,
    @ValidBody(rollbackBody) b: z.infer<typeof rollbackBody>,
  ): Promise<CampaignView> {
    return this.definitions.rollback(actor, p.id, b?.firmwareId);
  }
}
