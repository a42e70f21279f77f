import { Injectable } from '@nestjs/common';
import { AnnouncementTools } from './announcement-tools';
import { CallTools } from './call-tools';
import { CampaignTools } from './campaign-tools';
import { FleetToolSet } from './fleet-tool';
import { ReadTools } from './read-tools';

/** The fleet's MCP tools, one set for every revision and session. */
@Injectable()
export class FleetTools {
  readonly set: FleetToolSet;

  constructor(
    readTools: ReadTools,
    callTools: CallTools,
    campaignTools: CampaignTools,
    announcementTools: AnnouncementTools,
  ) {
    this.set = new FleetToolSet([
      ...readTools.tools(),
      ...callTools.tools(),
      ...campaignTools.tools(),
      ...announcementTools.tools(),
    ]);
  }
}
