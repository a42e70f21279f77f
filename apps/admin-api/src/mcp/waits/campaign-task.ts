import type { CampaignState } from '@fleet/domain';
import type { TaskStatus } from './agent-task';

// A campaign an agent asked for is its task. Its id is the campaign's with a prefix, so that a task id says which
// kind of row it is (a call's task id is the bare call id).

const PREFIX = 'campaign-';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function campaignTaskId(campaignId: string): string {
  return `${PREFIX}${campaignId}`;
}

/** The campaign a task id names, or undefined when it names none (a call's, or nothing of ours). */
export function campaignOfTask(taskId: string): string | undefined {
  if (!taskId.startsWith(PREFIX)) return undefined;
  const id = taskId.slice(PREFIX.length);
  return UUID.test(id) ? id.toLowerCase() : undefined;
}

/** DESIGN §3's campaign states as MCP task statuses: a person's approval is input the client cannot give. */
export function campaignTaskStatus(state: CampaignState): TaskStatus {
  switch (state) {
    case 'awaiting_approval':
      return 'input_required';
    case 'draft':
    case 'running':
    case 'paused':
      return 'working';
    case 'completed':
      return 'completed';
    case 'aborted':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}

export interface CampaignFacts {
  id: string;
  name: string;
  state: CampaignState;
  stateReason: string | null;
  progress: Record<string, number>;
}

/** What the state lets an agent conclude, in words it can repeat. */
export function campaignMeaning(c: CampaignFacts): string {
  const p = c.progress;
  const done = `${p['verified'] ?? 0} of ${p['total'] ?? 0} devices verified`;
  switch (c.state) {
    case 'draft':
      return 'created, not started';
    case 'awaiting_approval':
      return "waits for a second person's approval on its console page (the agent's own confirmation does not count); nothing has been sent";
    case 'running':
      return `running: ${done} so far`;
    case 'paused':
      return `paused by a person: ${done}; devices in progress finish, no new one starts until it is resumed`;
    case 'completed':
      return `finished: ${done}; see progress for the rest`;
    case 'aborted':
      return `stopped by its abort rule: ${done}`;
    case 'cancelled':
      return `cancelled: ${done}; nothing more is sent`;
  }
}

/** The task's status message: which campaign, what it is doing, and where a person decides when one must. */
export function campaignStatusMessage(c: CampaignFacts, pageUrl: string | undefined): string {
  const reason = c.stateReason ? ` (${c.stateReason})` : '';
  const where = c.state === 'awaiting_approval' && pageUrl ? `: ${pageUrl}` : '';
  return `campaign "${c.name}" ${campaignMeaning(c)}${reason}${where}`;
}
