import { Injectable } from '@nestjs/common';
import { campaignSpecSchema, type CampaignSpec } from '@fleet/domain';
import { AuditService } from '../audit/audit.service';
import { DeviceScope } from '../auth/device-scope';
import { CampaignTransitionsService } from '../campaigns/campaign-transitions.service';
import { CampaignsService, type CampaignView } from '../campaigns/campaigns.service';
import { ApiError } from '../http/api-error';
import { auditedStep } from './agent-audit';
import type { AgentCaller } from './agent-calls.service';
import { AgentCampaignsRepository } from './agent-campaigns.repository';
import { AGENT_ABORT_RULE, AGENT_ROLLOUT, type RunCampaignInput } from './campaign-schemas';

/**
 * An outside agent's campaigns: created and started exactly as the REST routes do (the campaign service and its
 * state machine, the same audit events, a group-scoped key's bounds), so a campaign that needs approval waits for
 * a person other than the credential's owner. Each is recorded as the agent's, whose task it is.
 */
@Injectable()
export class AgentCampaignsService {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly transitions: CampaignTransitionsService,
    private readonly scope: DeviceScope,
    private readonly audit: AuditService,
    private readonly repo: AgentCampaignsRepository,
  ) {}

  /** Creation, then the start; a retry with the same idempotency key joins the first campaign as it stands. */
  async run(caller: AgentCaller, input: RunCampaignInput): Promise<CampaignView> {
    const spec = await this.specOf(caller, input);
    const key = input.idempotencyKey ? `mcp:${caller.agent.agentId}:${input.idempotencyKey}` : undefined;
    const created = await auditedStep(
      this.audit,
      caller,
      {
        action: 'campaign.create',
        targetType: 'campaign',
        targetId: (c) => c.id,
        status: 201,
        params: {},
        body: spec,
      },
      async () => {
        await this.scope.assertSelector(caller.actor, { selector: spec.selector });
        return this.campaigns.create(caller.actor, spec, key);
      },
    );
    await this.repo.record(created.id, caller.agent.agentId);
    if (created.state !== 'draft') return created;
    try {
      return await this.step(caller, 'campaign.start', created.id, {}, () =>
        this.transitions.start(created.id),
      );
    } catch (err) {
      // REST leaves such a draft for a person to change; an agent cannot, so it is not left lying about.
      if (err instanceof ApiError) await this.cancel(caller, created.id, `could not start: ${err.message}`);
      throw err;
    }
  }

  /** The REST route's cancel: devices not started are cancelled, nothing new is sent. */
  cancel(caller: AgentCaller, campaignId: string, reason: string): Promise<CampaignView> {
    return this.step(caller, 'campaign.cancel', campaignId, { reason }, async () => {
      await this.scope.assertCampaign(caller.actor, campaignId);
      return this.transitions.cancel(campaignId, reason);
    });
  }

  get(campaignId: string): Promise<CampaignView> {
    return this.campaigns.get(campaignId);
  }

  /** Whose task the campaign is: the agent that asked for it through /mcp, if one did. */
  agentOf(campaignId: string): Promise<string | undefined> {
    return this.repo.agentOf(campaignId);
  }

  private step(
    caller: AgentCaller,
    action: string,
    id: string,
    body: Record<string, unknown>,
    work: () => Promise<CampaignView>,
  ): Promise<CampaignView> {
    const step = { action, targetType: 'campaign', targetId: id, status: 200, params: { id }, body };
    return auditedStep(this.audit, caller, step, work);
  }

  /** The campaign as REST would be asked for it: one tool call on every device, with an agent's safer defaults. */
  private async specOf(caller: AgentCaller, input: RunCampaignInput): Promise<CampaignSpec> {
    const selector = await this.scope.boundSelector(caller.actor, input.selector);
    const name = input.name ?? `${input.tool} by ${caller.agent.context.client.name}`.slice(0, 200);
    return campaignSpecSchema.parse({
      name,
      selector,
      action: { kind: 'tool', tool: input.tool, arguments: input.arguments },
      rollout: input.rollout ?? AGENT_ROLLOUT,
      abortRule: input.abortRule ?? AGENT_ABORT_RULE,
      ...(input.windows ? { windows: input.windows } : {}),
      deviceTimeoutS: input.deviceTimeoutS,
    });
  }
}
