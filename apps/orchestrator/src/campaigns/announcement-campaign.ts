import { heldUntil, type AnnouncementArguments, type CampaignAction, type Verdict } from '@fleet/domain';
import { announcementCampaignDone } from '../verification/announcement-campaign-done';
import type { AnnouncementCampaignRepository } from './announcement-campaign.repository';
import type { AnnouncementDeviceRate } from './announcement-device-rate';

type AnnouncementAction = Extract<CampaignAction, { kind: 'announcement' }>;

/** One check of the gate, as a call's decision row lists rules. */
interface GateRule {
  rule: string;
  result: 'passed' | 'not_applicable';
  detail: string;
}

export interface AnnouncementRequest {
  tool: string;
  arguments: AnnouncementArguments;
  deliveryDeadlineMs: number;
  context: { gate: Record<string, unknown>[] };
}

/**
 * The per-device half of an announcement campaign's gate (the API checked the role, the key's groups, the size,
 * the sender's rate and the second person when the campaign was made and started): quiet hours of the device's
 * groups, each in its own time zone, keep its device waiting as a maintenance window would, and the device's own
 * rate is spent last, just before its call is made. What was found goes into the call's decision row.
 */
export class AnnouncementCampaigns {
  constructor(
    private readonly repository: AnnouncementCampaignRepository,
    private readonly rate: AnnouncementDeviceRate,
  ) {}

  async prepare(
    campaignName: string,
    action: AnnouncementAction,
    deviceId: string,
    tool: string,
    now = new Date(),
  ): Promise<AnnouncementRequest | { wait: string }> {
    const groups = await this.repository.quietGroupsOf(deviceId);
    const hold = heldUntil(groups, now);
    if (hold)
      return {
        wait: `held back by the quiet hours of group ${hold.group} until ${hold.until.toISOString()}`,
      };
    const spent = await this.rate.spend(deviceId);
    if (!spent.ok)
      return {
        // The same words each round while it waits (no countdown), so a held device's row reads steadily.
        wait: `more than ${this.rate.perDevice} announcements in ${this.rate.windowS} s to this device: it waits for the window to free one`,
      };
    const gate: GateRule[] = [
      {
        rule: 'campaign',
        result: 'passed',
        detail: `campaign "${campaignName}": its creator's role, the key's groups, the size, the sender's rate and any second person were checked when it was made and started`,
      },
      {
        rule: 'rate_per_device',
        result: 'passed',
        detail: `at most ${this.rate.perDevice} in ${this.rate.windowS} s`,
      },
      {
        rule: 'quiet_hours',
        result: groups.length ? 'passed' : 'not_applicable',
        detail: groups.length ? 'outside every group quiet hours' : 'no group of the device has quiet hours',
      },
    ];
    return {
      tool,
      arguments: {
        text: action.text,
        language: action.language,
        how: action.how,
        ...(action.title ? { title: action.title } : {}),
        ...(action.emotion ? { emotion: action.emotion } : {}),
      },
      deliveryDeadlineMs: action.deadlineS * 1000,
      context: { gate: gate as unknown as Record<string, unknown>[] },
    };
  }

  /** Whether a sealed device counts as done (verification/ decides it from the verdict and the effect row). */
  async done(
    action: AnnouncementAction,
    targetId: string,
    verdict: Verdict,
  ): Promise<'verified' | 'acknowledged' | undefined> {
    return announcementCampaignDone(action.how, verdict, await this.repository.effectMethod(targetId));
  }
}
