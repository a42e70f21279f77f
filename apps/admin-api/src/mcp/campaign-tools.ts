import { Inject, Injectable } from '@nestjs/common';
import { roleAllows } from '@fleet/auth';
import type { Logger } from '@fleet/telemetry';
import { AuditService } from '../audit/audit.service';
import { LOGGER } from '../infra/tokens';
import { AgentCampaignsService } from './agent-campaigns.service';
import { campaignOutcome, runCampaignInput } from './campaign-schemas';
import { fleetTool, type FleetTool, type ToolAnswer } from './fleet-tool';
import { agentCallerOf, deniedTool } from './tool-caller';
import { answer, guarded } from './tool-results';
import { campaignTaskId } from './waits/campaign-task';
import { CampaignTasks } from './waits/campaign-tasks';

/**
 * Campaigns for agents (operator role; not even listed to others): one tool call on many devices, rolled out and
 * verified by the platform, and a task the client follows: it waits for a second person's approval where the
 * action needs one, exactly as a campaign asked for in the console does.
 */
@Injectable()
export class CampaignTools {
  constructor(
    private readonly campaigns: AgentCampaignsService,
    private readonly tasks: CampaignTasks,
    private readonly audit: AuditService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  tools(): FleetTool[] {
    return [
      fleetTool(
        'run_campaign',
        {
          title: 'Run a campaign: one tool call on many devices',
          description:
            'Calls one tool, with the same arguments, on every device a selector matches (operator role), as a ' +
            'campaign: the platform rolls it out in waves (by default one device first, then 2, 4, 8, 10 at a ' +
            'time), verifies each device, and stops by itself when too many fail. A campaign whose tool is ' +
            "reserved to people (a reboot, an upgrade, one marked sensitive) waits for a second person's " +
            'approval on its console page, whose URL the answer gives (your own confirmation does not approve ' +
            'it). It is answered as a task where the client takes tasks: follow it with tasks/get, wait for it ' +
            'with tasks/result, withdraw it with tasks/cancel. Otherwise the answer is the campaign as it stands ' +
            'and its page.',
          inputSchema: runCampaignInput,
          outputSchema: campaignOutcome,
          annotations: {
            title: 'Run a campaign',
            readOnlyHint: false,
            destructiveHint: true, // every matched device's tool is called
            idempotentHint: false, // a second campaign runs again (unless it carries the same idempotencyKey)
            openWorldHint: true,
          },
          execution: { taskSupport: 'optional' },
          listedFrom: 'operator',
        },
        (input, ctx) =>
          guarded(this.logger, 'run_campaign', async (): Promise<ToolAnswer> => {
            const caller = agentCallerOf(ctx);
            if (!roleAllows(caller.actor.role, 'operator'))
              return deniedTool(this.audit, caller, 'run_campaign');
            const view = await this.campaigns.run(caller, input);
            // A campaign outlasts any short budget: a client that takes tasks gets one at once.
            if (ctx.wait.taskRequested || ctx.wait.tasksOffered)
              return { kind: 'task', taskId: campaignTaskId(view.id) };
            return answer(this.tasks.result(view, caller.consoleUrl));
          }),
      ),
    ];
  }
}
