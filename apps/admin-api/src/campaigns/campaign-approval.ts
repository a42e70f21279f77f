import {
  ANNOUNCE_TOOL,
  campaignActionTool,
  SYSTEM_REBOOT_TOOL,
  type CampaignAction,
  type CampaignSelector,
} from '@fleet/domain';
import { argumentsHash } from '@fleet/platform-client';
import type { AnnouncementCampaignGate } from './announcement-campaign-gate';
import { capabilityIsGated, toolIsGated } from './campaign-tool-gate';
import type { CampaignToolsRepository } from './campaign-tools.repository';
import type { CampaignRow } from './campaigns.repository';

/** The firmware's upgrade tool is user-only (xiaozhi AddUserOnlyTool), as is a reboot of any kind. */
const UPGRADE_TOOL = 'self.upgrade_firmware';

/**
 * Whether a campaign must wait for a second person. A reboot and a firmware upgrade always do (an upgrade
 * through the OTA answer ends in a reboot); a tool does when any matched device gates it; a capability when
 * the tool any matched device would carry it out with is gated there; an announcement when the admin's rule asks
 * for a second person (more devices than ANNOUNCE_APPROVAL_ABOVE_DEVICES, or outside ANNOUNCE_APPROVAL_HOURS).
 */
export async function actionIsGated(
  action: CampaignAction,
  selector: CampaignSelector,
  tools: Pick<CampaignToolsRepository, 'ofSelector'>,
  announcements: Pick<AnnouncementCampaignGate, 'secondPerson'>,
): Promise<boolean> {
  switch (action.kind) {
    case 'reboot':
    case 'firmware':
      return true;
    case 'tool':
    case 'capability': {
      // Held for a person as a whole, like a firmware campaign, rather than each device's call refused by the
      // orchestrator's gate for want of an approved campaign: the same rule, the profiles' kinds included.
      const facts = await tools.ofSelector(selector);
      return action.kind === 'tool'
        ? toolIsGated(action.tool, facts.devices, facts.profiles)
        : capabilityIsGated(action, facts.devices, facts.profiles);
    }
    case 'announcement':
      return (await announcements.secondPerson(selector)).result === 'awaiting_approval';
  }
}

/**
 * What the campaign's approval binds: the action and the selector it runs on, hashed as a call's approval
 * binds device, tool and arguments. The approver signs off this exact campaign, not its name.
 */
export function approvalSubject(c: CampaignRow): { tool: string; arguments: unknown; argumentsHash: string } {
  const tool =
    c.action.kind === 'tool' || c.action.kind === 'capability'
      ? campaignActionTool(c.action)
      : c.action.kind === 'reboot'
        ? SYSTEM_REBOOT_TOOL
        : c.action.kind === 'announcement'
          ? ANNOUNCE_TOOL
          : UPGRADE_TOOL;
  const args = { action: c.action, selector: c.selector };
  return { tool, arguments: args, argumentsHash: argumentsHash(`campaign:${c.id}`, tool, args) };
}
