import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { campaignActionTool } from '@fleet/domain';
import type { CampaignView } from '../../campaigns/campaigns.service';
import { AuditService } from '../../audit/audit.service';
import { ApiError } from '../../http/api-error';
import { recordConfirmation } from '../agent-audit';
import type { AgentCaller } from '../agent-calls.service';
import { AgentCampaignsService } from '../agent-campaigns.service';
import type { CampaignOutcome } from '../campaign-schemas';
import { dataResult } from '../tool-results';
import {
  assertCancellable,
  isTerminal,
  TASK_POLL_MS,
  type AgentTask,
  type ApprovalElicitation,
} from './agent-task';
import { campaignUrl } from './approval-links';
import {
  campaignMeaning,
  campaignOfTask,
  campaignStatusMessage,
  campaignTaskId,
  campaignTaskStatus,
} from './campaign-task';
import { EventWaits } from '../../events/event-waits';

/**
 * Campaigns as tasks: read from the campaign's row every time, visible only to the agent that asked for the
 * campaign (anyone else's, or one made in the console, is no task at all), cancelled through the REST route's
 * logic. While one waits for approval, its console page is where the user is sent.
 */
@Injectable()
export class CampaignTasks {
  constructor(
    private readonly campaigns: AgentCampaignsService,
    private readonly waits: EventWaits,
    private readonly audit: AuditService,
  ) {}

  owns(taskId: string): boolean {
    return campaignOfTask(taskId) !== undefined;
  }

  async find(caller: AgentCaller, taskId: string): Promise<AgentTask | undefined> {
    const id = campaignOfTask(taskId);
    if (!id || (await this.campaigns.agentOf(id)) !== caller.agent.agentId) return undefined;
    try {
      return this.asTask(caller, await this.campaigns.get(id));
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** The campaign as a tool result: how it stands (or ended), with its page; a failed one is a tool error. */
  result(view: CampaignView, consoleUrl: string): CallToolResult {
    const outcome = campaignOutcomeOf(view, consoleUrl);
    const status = campaignTaskStatus(view.state);
    const words = `${campaignStatusMessage(view, outcome.page)}. Its page: ${outcome.page}`;
    return {
      ...dataResult(words, outcome, status === 'failed'),
      _meta: { campaignId: view.id, state: view.state, campaign: outcome.page },
    };
  }

  private asTask(caller: AgentCaller, view: CampaignView): AgentTask {
    const status = campaignTaskStatus(view.state);
    const page = campaignUrl(caller.consoleUrl, view.id);
    const taskId = campaignTaskId(view.id);
    const elicitation: ApprovalElicitation | undefined =
      status === 'input_required'
        ? {
            mode: 'url',
            url: page,
            elicitationId: taskId,
            message:
              `The campaign "${view.name}" needs a second person's approval. Open this page and ask someone other ` +
              'than yourself to approve it there; your own confirmation here is recorded, but does not approve it.',
          }
        : undefined;
    return {
      task: {
        taskId,
        status,
        statusMessage: campaignStatusMessage(view, page),
        createdAt: view.createdAt.toISOString(),
        lastUpdatedAt: view.updatedAt.toISOString(),
        ttl: null, // a campaign is kept for good: so is its task
        pollInterval: TASK_POLL_MS,
      },
      ...(elicitation ? { elicitation } : {}),
      result: () => Promise.resolve(this.result(view, caller.consoleUrl)),
      cancel: async (reason) => {
        assertCancellable(status);
        await this.campaigns.cancel(caller, view.id, reason);
      },
      confirm: (action, via) =>
        recordConfirmation(this.audit, caller, { type: 'campaign', id: view.id }, { action, via }),
      changed: async (ms, signal) => {
        if (!isTerminal(status)) await this.waits.nap({ type: 'campaign', id: view.id }, ms, signal);
        return !signal.aborted && !this.waits.stopped.aborted;
      },
    };
  }
}

export function campaignOutcomeOf(view: CampaignView, consoleUrl: string): CampaignOutcome {
  return {
    taskId: campaignTaskId(view.id),
    campaignId: view.id,
    name: view.name,
    tool: campaignActionTool(view.action),
    state: view.state,
    meaning: campaignMeaning(view),
    reason: view.stateReason,
    progress: view.progress,
    page: campaignUrl(consoleUrl, view.id),
    createdAt: view.createdAt.toISOString(),
    startedAt: view.startedAt?.toISOString() ?? null,
    finishedAt: view.finishedAt?.toISOString() ?? null,
  };
}
