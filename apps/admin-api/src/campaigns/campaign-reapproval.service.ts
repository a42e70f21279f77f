import { Injectable } from '@nestjs/common';
import { campaignSpecSchema, type CampaignSpec } from '@fleet/domain';
import type { Actor } from '../http/actor';
import { conflict, notFound } from '../http/api-error';
import { Transactions } from '../infra/transactions';
import { CampaignTargetsRepository } from './campaign-targets.repository';
import { CampaignTransitionsService } from './campaign-transitions.service';
import { CampaignsRepository, type CampaignRow } from './campaigns.repository';
import type { CampaignView } from './campaigns.service';

const NAME_MAX = 200;

/**
 * Asking approval again for the devices a campaign rejected because their tool changed since it was approved
 * (DESIGN §4). What an operator expects: the same action and settings, on exactly those devices, in a new
 * campaign that waits for another person's approval of the tools as they are now; the first campaign keeps its
 * record (its approval bound other definitions) and links to the new one by `reapprovalOf`.
 */
@Injectable()
export class CampaignReapprovalService {
  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly targets: CampaignTargetsRepository,
    private readonly transitions: CampaignTransitionsService,
    private readonly transactions: Transactions,
  ) {}

  async reapprove(actor: Actor, id: string): Promise<CampaignView> {
    // The original is locked while its devices are counted, so two requests cannot both take the same ones.
    const created = await this.transactions.run(async (tx) => {
      const original = await this.campaigns.get(id, tx, true);
      if (!original) throw notFound('campaign', id);
      const devices = await this.targets.rejectedForReapproval(id, tx);
      if (devices.length === 0) {
        throw conflict(
          'nothing_to_reapprove',
          'no device of this campaign was rejected because its tool changed, or another campaign already asks approval for each',
        );
      }
      return this.campaigns.create(followUp(original, devices), actor.operatorId, undefined, {
        reapprovalOf: id,
        tx,
      });
    });
    // Started as any campaign is: it waits for approval when the action is gated on any of its devices.
    return this.transitions.start(created.id);
  }
}

function followUp(c: CampaignRow, deviceIds: string[]): CampaignSpec {
  const suffix = ` (approval again: tool changed on ${deviceIds.length})`;
  return campaignSpecSchema.parse({
    name: `${c.name.slice(0, NAME_MAX - suffix.length)}${suffix}`,
    selector: { deviceIds },
    action: c.action,
    rollout: c.rollout,
    abortRule: c.abortRule,
    ...(c.windows ? { windows: c.windows } : {}),
    deviceTimeoutS: c.deviceTimeoutS,
    retries: c.retries,
    skipInSession: c.skipInSession,
    doneWhen: c.doneWhen,
  });
}
