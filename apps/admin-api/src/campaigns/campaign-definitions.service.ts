import { Injectable } from '@nestjs/common';
import { campaignSpecSchema, type CampaignSpec } from '@fleet/domain';
import type { Actor } from '../http/actor';
import { conflict, notFound, unprocessable } from '../http/api-error';
import { Notices } from '../infra/notices';
import { Transactions } from '../infra/transactions';
import { CampaignDefinitionsRepository } from './campaign-definitions.repository';
import type { CampaignEdit } from './campaign-edit.schemas';
import { CampaignTransitionsService } from './campaign-transitions.service';
import { CampaignsRepository, type CampaignRow } from './campaigns.repository';
import { CampaignsService, type CampaignView } from './campaigns.service';

const NAME_MAX = 200;

/**
 * What may happen to a campaign's definition (DESIGN §3): a draft may be edited; once started it is sealed (the
 * database refuses any change to it too), so a change of course is a new campaign: a person continuing past a
 * failed gate, or a rollback linked to the campaign it undoes.
 */
@Injectable()
export class CampaignDefinitionsService {
  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly definitions: CampaignDefinitionsRepository,
    private readonly transitions: CampaignTransitionsService,
    private readonly reads: CampaignsService,
    private readonly transactions: Transactions,
    private readonly notices: Notices,
  ) {}

  async edit(id: string, edit: CampaignEdit): Promise<CampaignView> {
    if (edit.action?.kind === 'firmware' && !(await this.campaigns.firmware(edit.action.firmwareId)))
      throw unprocessable('unknown_firmware', `no firmware ${edit.action.firmwareId} in the registry`);
    await this.transactions.run(async (tx) => {
      const c = await this.campaigns.get(id, tx, true);
      if (!c) throw notFound('campaign', id);
      if (!(await this.definitions.editDraft(tx, id, edit)))
        throw conflict(
          'campaign_sealed',
          `the campaign is ${c.state}: only a draft can be edited; a started campaign's definition is sealed ` +
            '(create a new campaign, or a rollback)',
        );
    });
    return this.reads.get(id);
  }

  async continuePastGate(actor: Actor, id: string, reason: string): Promise<CampaignView> {
    const at = new Date().toISOString();
    const detail = `continued by ${actor.email}: ${reason}`;
    await this.transactions.run(async (tx) => {
      const c = await this.campaigns.get(id, tx, true);
      if (!c) throw notFound('campaign', id);
      const entry = { outcome: 'continued' as const, at, detail, by: actor.operatorId };
      if (!(await this.definitions.continuePastGate(tx, id, entry)))
        throw conflict(
          'no_failed_gate',
          `the campaign is ${c.state} and not held by a failed phase gate; continue needs one`,
        );
    });
    const view = await this.reads.get(id);
    const last = (view.phaseLog as { phase: number; name: string }[]).at(-1)!;
    this.notices.event({
      type: 'campaign',
      campaignId: id,
      state: view.state,
      phase: { index: last.phase, name: last.name, outcome: 'continued', detail },
      at,
    });
    return view;
  }

  /** One step from the release page: a campaign back to the previous image on the devices this one started. */
  async rollback(actor: Actor, id: string, firmwareId?: string): Promise<CampaignView> {
    const created = await this.transactions.run(async (tx) => {
      const original = await this.campaigns.get(id, tx, true);
      if (!original) throw notFound('campaign', id);
      if (original.action.kind !== 'firmware' || original.startedAt === null)
        throw conflict(
          'not_a_started_upgrade',
          'only a firmware campaign that has started can be rolled back',
        );
      const devices = await this.definitions.startedDevices(tx, id);
      if (devices.length === 0) throw conflict('nothing_to_roll_back', 'the campaign started no device yet');
      const target =
        firmwareId ?? (await this.definitions.previousFirmware(tx, id, original.action.firmwareId));
      if (!target || !(await this.campaigns.firmware(target)))
        throw unprocessable(
          'no_previous_firmware',
          'no image of the version its devices ran before is in the registry; name one (firmwareId)',
          'body.firmwareId',
        );
      return this.campaigns.create(rollbackSpec(original, devices, target), actor.operatorId, undefined, {
        rollbackOf: id,
        tx,
      });
    });
    // Started as any campaign is: it waits for another person's approval when the upgrade is gated.
    return this.transitions.start(created.id);
  }
}

function rollbackSpec(c: CampaignRow, deviceIds: string[], firmwareId: string): CampaignSpec {
  const prefix = 'Rollback of ';
  const via = c.action.kind === 'firmware' ? c.action.via : 'mcp';
  return campaignSpecSchema.parse({
    name: `${prefix}${c.name.slice(0, NAME_MAX - prefix.length)}`,
    selector: { deviceIds },
    action: { kind: 'firmware', firmwareId, via },
    rollout: c.rollout,
    abortRule: c.abortRule,
    ...(c.windows ? { windows: c.windows } : {}),
    deviceTimeoutS: c.deviceTimeoutS,
    retries: c.retries,
    skipInSession: c.skipInSession,
  });
}
