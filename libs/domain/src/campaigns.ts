import { ANNOUNCE_TOOL } from './announcements';
import type { CampaignAction } from './campaign-specs';

// DESIGN §3: draft → awaiting_approval → running ⇄ paused → completed / aborted / cancelled
export const CAMPAIGN_STATES = [
  'draft',
  'awaiting_approval',
  'running',
  'paused',
  'completed',
  'aborted',
  'cancelled',
] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

// pending → waiting_for_device → in_progress → verified / failed / skipped / cancelled / rejected
// (rejected: the device's tool changed since the campaign was approved, DESIGN §4; approved again, it runs anew)
export const CAMPAIGN_TARGET_STATES = [
  'pending',
  'waiting_for_device',
  'in_progress',
  'verified',
  'failed',
  'skipped',
  'cancelled',
  'rejected',
  'acknowledged', // last, as the database enum gained it (ALTER TYPE … ADD VALUE appends)
] as const;
export type CampaignTargetState = (typeof CAMPAIGN_TARGET_STATES)[number];

/**
 * Why a campaign's call to a device is rejected when the tool on that device is not the one the approval saw
 * (its description, inputSchema or annotations changed). The call's verdict reason, and so the campaign runner's
 * cue to move the device to `rejected` rather than `failed`.
 */
export const CAMPAIGN_TOOL_CHANGED = 'the tool changed since the campaign was approved';

/**
 * What a campaign target's approval binding holds for a device that had no such tool when the campaign was
 * approved: whatever it declares later is a definition nobody approved.
 */
export const NO_TOOL_AT_APPROVAL = 'none';

/** The tool a campaign's action calls on each device (the campaign runner sends it; its approval binds it). */
export function campaignActionTool(action: CampaignAction): string {
  switch (action.kind) {
    case 'tool':
      return action.tool;
    case 'capability':
      // Resolved per device by its model's profile (capabilities.ts); named here for people.
      return `capability:${action.capability}`;
    case 'reboot':
      return 'self.reboot';
    case 'firmware':
      // `ota` assigns the image to the device's check-in answer, then reboots it.
      return action.via === 'ota' ? 'self.reboot' : 'self.upgrade_firmware';
    case 'announcement':
      return ANNOUNCE_TOOL;
  }
}
