import { Controller, Get } from '@nestjs/common';
import type { z } from 'zod';
import { releaseCampaignListSchema } from '@fleet/api-contract';
import { uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidParams } from '../http/validation';
import { CampaignDefinitionsRepository, type ReleaseCampaignRow } from './campaign-definitions.repository';

@Controller('firmware')
export class ReleaseCampaignsController {
  constructor(private readonly definitions: CampaignDefinitionsRepository) {}

  @Get(':id/campaigns')
  @Roles('viewer')
  @Doc({
    summary:
      "A release's campaigns, newest first, each with the campaign it undoes and the one that undid it",
    response: { status: 200, schema: releaseCampaignListSchema },
  })
  async list(
    @ValidParams(uuidParams) p: z.infer<typeof uuidParams>,
  ): Promise<{ items: ReleaseCampaignRow[] }> {
    return { items: await this.definitions.ofFirmware(p.id) };
  }
}
