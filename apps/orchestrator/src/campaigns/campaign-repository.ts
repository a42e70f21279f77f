import { createDatabase, sql, ToolProfilesRepository, type Database, type Pool } from '@fleet/db';
import {
  campaignAbortRuleSchema,
  campaignActionSchema,
  campaignRolloutSchema,
  maintenanceWindowSchema,
  type CampaignAction,
  type CampaignAbortRule,
  type CampaignRollout,
  type CampaignState,
  type CampaignTargetState,
  type MaintenanceWindow,
  type ProfiledDevice,
  type ToolProfileView,
  type Verdict,
} from '@fleet/domain';
import { z } from 'zod';

export interface CampaignRecord {
  id: string;
  name: string;
  state: CampaignState;
  action: CampaignAction;
  rollout: CampaignRollout;
  abortRule: CampaignAbortRule;
  windows: MaintenanceWindow[] | null;
  deviceTimeoutS: number;
  retries: number;
  skipInSession: boolean;
  doneWhen: 'verified' | 'verified_or_acknowledged';
}

export interface SettledTarget {
  id: string;
  deviceId: string;
  attempts: number;
  verdict: Verdict;
  verdictReason: string | null;
  firmwareVersion: string | null;
}

export interface Candidate {
  id: string;
  deviceId: string;
  state: CampaignTargetState;
  attempts: number;
  online: boolean;
  timeZone: string;
}

/** The campaign runner's reads and writes (state in Postgres, so any replica can continue a campaign). */
export class CampaignRepository {
  private readonly db: Database;

  constructor(pool: Pool) {
    this.db = createDatabase(pool);
  }

  /** What resolving a capability on a device needs: its model, catalog content and tools, its models' profiles. */
  async capabilityContext(deviceId: string): Promise<{
    device: ProfiledDevice;
    tools: Set<string>;
    profiles: ToolProfileView[];
  }> {
    const d = await this.db
      .selectFrom('device as d')
      .leftJoin('device_catalog_version as v', 'v.id', 'd.catalog_version_id')
      .leftJoin('tool_catalog as c', 'c.id', 'v.catalog_id')
      .select(['d.board', 'v.server_name as serverName', 'c.hash as catalogHash', 'c.id as catalogId'])
      .where('d.id', '=', deviceId)
      .executeTakeFirst();
    const tools = d?.catalogId
      ? await this.db.selectFrom('tool').select('name').where('catalog_id', '=', d.catalogId).execute()
      : [];
    const models = [d?.board, d?.serverName].filter((m): m is string => !!m);
    return {
      device: { board: d?.board ?? null, serverName: d?.serverName, catalogHash: d?.catalogHash },
      tools: new Set(tools.map((t) => t.name)),
      profiles: await new ToolProfilesRepository(this.db).ofModels(models),
    };
  }

  async active(): Promise<CampaignRecord[]> {
    const rows = await this.db
      .selectFrom('campaign')
      .select([
        'id',
        'name',
        'state',
        'action',
        'rollout',
        'abort_rule',
        'windows',
        'device_timeout_s',
        'retries',
        'skip_in_session',
        'done_when',
      ])
      .where('state', 'in', ['running', 'paused', 'cancelled', 'aborted'])
      .where((eb) =>
        eb.or([
          eb('state', 'in', ['running', 'paused']),
          eb.exists(
            eb
              .selectFrom('campaign_target as t')
              .select('t.id')
              .whereRef('t.campaign_id', '=', 'campaign.id')
              .where('t.state', '=', 'in_progress'),
          ),
        ]),
      )
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      state: r.state,
      action: campaignActionSchema.parse(r.action),
      rollout: campaignRolloutSchema.parse(r.rollout),
      abortRule: campaignAbortRuleSchema.parse(r.abort_rule),
      windows: r.windows ? z.array(maintenanceWindowSchema).parse(r.windows) : null,
      deviceTimeoutS: r.device_timeout_s,
      retries: r.retries,
      skipInSession: r.skip_in_session,
      doneWhen: r.done_when,
    }));
  }

  async counts(
    campaignId: string,
  ): Promise<Record<CampaignTargetState, number> & { startedLastMinute: number; started: number }> {
    const rows = await this.db
      .selectFrom('campaign_target')
      .select([
        'state',
        sql<number>`count(*)::int`.as('n'),
        sql<number>`count(*) FILTER (WHERE attempts > 0 AND updated_at > now() - interval '1 minute')::int`.as(
          'recent',
        ),
        sql<number>`count(*) FILTER (WHERE attempts > 0)::int`.as('started'),
      ])
      .where('campaign_id', '=', campaignId)
      .groupBy('state')
      .execute();
    const counts = {
      pending: 0,
      waiting_for_device: 0,
      in_progress: 0,
      verified: 0,
      acknowledged: 0,
      failed: 0,
      skipped: 0,
      cancelled: 0,
      rejected: 0,
      startedLastMinute: 0,
      started: 0,
    };
    for (const r of rows) {
      counts[r.state] = r.n;
      counts.startedLastMinute += r.recent;
      counts.started += r.started;
    }
    return counts;
  }

  /** Targets whose call has a verdict: they are ready to be settled. */
  async settled(campaignId: string): Promise<SettledTarget[]> {
    const rows = await this.db
      .selectFrom('campaign_target as t')
      .innerJoin('call as c', 'c.id', 't.call_id')
      .innerJoin('device as d', 'd.id', 't.device_id')
      .select([
        't.id',
        't.device_id as deviceId',
        't.attempts',
        'c.verdict',
        'c.verdict_reason as verdictReason',
        'd.firmware_version as firmwareVersion',
      ])
      .where('t.campaign_id', '=', campaignId)
      .where('t.state', '=', 'in_progress')
      .where('c.verdict', 'is not', null)
      .execute();
    // the WHERE above leaves no null verdict; the filter tells the compiler so
    return rows.flatMap((r) => (r.verdict === null ? [] : [{ ...r, verdict: r.verdict }]));
  }

  /** Targets to start; in a phased rollout, only those of the phases opened so far. */
  candidates(campaignId: string, limit: number, phasedOnly = false): Promise<Candidate[]> {
    return this.db
      .selectFrom('campaign_target as t')
      .innerJoin('device as d', 'd.id', 't.device_id')
      .select((eb) => [
        't.id',
        't.device_id as deviceId',
        't.state',
        't.attempts',
        'd.online',
        eb.fn
          .coalesce(
            eb
              .selectFrom('device_group_member as m')
              .innerJoin('device_group as g', 'g.id', 'm.group_id')
              .select('g.time_zone')
              .whereRef('m.device_id', '=', 'd.id')
              .orderBy('g.name')
              .limit(1),
            sql.lit('UTC'),
          )
          .$castTo<string>()
          .as('timeZone'),
      ])
      .where('t.campaign_id', '=', campaignId)
      .where('t.state', 'in', ['pending', 'waiting_for_device'])
      .$if(phasedOnly, (q) => q.where('t.phase', 'is not', null))
      .orderBy(sql`t.state = 'waiting_for_device'`, 'desc')
      .orderBy('d.online', 'desc')
      .orderBy('t.device_id')
      .limit(limit)
      .execute();
  }

  async moveTarget(
    id: string,
    from: CampaignTargetState[],
    to: CampaignTargetState,
    detail: string | null,
    extra: { callId?: string; attempt?: boolean; deadlineS?: number } = {},
  ): Promise<boolean> {
    if (from.length === 0) return false;
    const { numUpdatedRows } = await this.db
      .updateTable('campaign_target')
      .set((eb) => ({
        state: to,
        detail,
        updated_at: sql<Date>`now()`,
        ...(extra.callId !== undefined ? { call_id: extra.callId } : {}),
        ...(extra.attempt ? { attempts: eb('attempts', '+', 1) } : {}),
        ...(extra.deadlineS !== undefined
          ? { deadline_at: sql<Date>`now() + make_interval(secs => ${extra.deadlineS}::int)` }
          : {}),
      }))
      .where('id', '=', id)
      .where('state', 'in', from)
      .executeTakeFirst();
    return numUpdatedRows > 0n;
  }

  /** Devices that waited offline past their deadline are skipped, not failed (DESIGN §3: campaigns). */
  async skipOverdue(campaignId: string): Promise<number> {
    const { numUpdatedRows } = await this.db
      .updateTable('campaign_target')
      .set({ state: 'skipped', detail: 'offline until its deadline', updated_at: sql<Date>`now()` })
      .where('campaign_id', '=', campaignId)
      .where('state', '=', 'waiting_for_device')
      .where('deadline_at', '<', sql<Date>`now()`)
      .executeTakeFirst();
    return Number(numUpdatedRows);
  }

  async cancelPending(campaignId: string, detail: string): Promise<void> {
    await this.db
      .updateTable('campaign_target')
      .set({ state: 'cancelled', detail, updated_at: sql<Date>`now()` })
      .where('campaign_id', '=', campaignId)
      .where('state', 'in', ['pending', 'waiting_for_device'])
      .execute();
  }

  async finish(
    campaignId: string,
    from: CampaignState,
    to: 'completed' | 'aborted',
    reason: string,
  ): Promise<boolean> {
    const { numUpdatedRows } = await this.db
      .updateTable('campaign')
      .set({ state: to, state_reason: reason, finished_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('id', '=', campaignId)
      .where('state', '=', from)
      .executeTakeFirst();
    return numUpdatedRows > 0n;
  }

  firmware(firmwareId: string): Promise<{ id: string; version: string; sha256: string } | undefined> {
    return this.db
      .selectFrom('firmware')
      .select(['id', 'version', 'sha256'])
      .where('id', '=', firmwareId)
      .executeTakeFirst();
  }

  /** The OTA path: the broker offers this image at the device's next check-in (DESIGN §5). */
  async assignFirmware(deviceId: string, firmwareId: string, campaignId: string): Promise<void> {
    await this.db
      .insertInto('firmware_assignment')
      .values({ device_id: deviceId, firmware_id: firmwareId, campaign_id: campaignId })
      .onConflict((c) =>
        c.column('device_id').doUpdateSet({
          firmware_id: firmwareId,
          campaign_id: campaignId,
          assigned_at: sql<Date>`now()`,
          offered_at: null,
        }),
      )
      .execute();
  }

  async unassignFirmware(deviceId: string, campaignId: string): Promise<void> {
    await this.db
      .deleteFrom('firmware_assignment')
      .where('device_id', '=', deviceId)
      .where('campaign_id', '=', campaignId)
      .execute();
  }
}
