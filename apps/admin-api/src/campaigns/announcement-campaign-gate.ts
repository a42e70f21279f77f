import { Inject, Injectable } from '@nestjs/common';
import type { CampaignAction, CampaignSelector } from '@fleet/domain';
import { checkAnnouncement, secondPersonRule, type GateRule } from '../announcements/announcement-gate';
import { AnnouncementRateLimit } from '../announcements/announcement-rate-limit';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import type { Actor } from '../http/actor';
import { ApiError } from '../http/api-error';
import { CampaignTargetsRepository } from './campaign-targets.repository';

type AnnouncementAction = Extract<CampaignAction, { kind: 'announcement' }>;

/**
 * The campaign half of the announcement gate: what the API checks once for the whole campaign (the role and the
 * key's groups are the campaign routes' own). The orchestrator's campaign runner checks each device's quiet hours
 * and spends its rate when it starts it.
 */
@Injectable()
export class AnnouncementCampaignGate {
  constructor(
    private readonly rates: AnnouncementRateLimit,
    private readonly targets: CampaignTargetsRepository,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  /** At creation: the size limit (413), then one of the sender's announcements (429 with Retry-After). */
  async admit(actor: Actor, action: AnnouncementAction): Promise<void> {
    const checked = checkAnnouncement(action.text, this.config.ANNOUNCE_MAX_BYTES, [], new Date());
    if (!checked.ok)
      throw new ApiError(413, 'announcement_too_large', `action.text: ${checked.rule.detail}`, [
        { field: 'body.action.text', message: checked.rule.detail },
      ]);
    await this.rates.consumeSender(actor.operatorId);
  }

  /** The admin's rule for a second person over the devices the selector matches now, at `now`. */
  async secondPerson(selector: CampaignSelector, now = new Date()): Promise<GateRule> {
    const { matched } = await this.targets.preview(selector);
    return secondPersonRule(
      matched,
      {
        aboveDevices: this.config.ANNOUNCE_APPROVAL_ABOVE_DEVICES,
        hours: this.config.ANNOUNCE_APPROVAL_HOURS,
        timeZone: this.config.ANNOUNCE_APPROVAL_TIME_ZONE,
      },
      now,
    );
  }
}
