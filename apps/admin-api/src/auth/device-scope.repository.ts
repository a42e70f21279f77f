import { Inject, Injectable } from '@nestjs/common';
import { campaignSelectorSchema } from '@fleet/domain';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

/** What a group-scoped key's bounds are checked against: group membership, and what a call or campaign covers. */
@Injectable()
export class DeviceScopeRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async deviceInGroups(deviceId: string, groupIds: readonly string[]): Promise<boolean> {
    if (groupIds.length === 0) return false;
    const row = await this.db
      .selectFrom('device_group_member')
      .select('device_id')
      .where('device_id', '=', deviceId)
      .where('group_id', 'in', groupIds)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The device a call went to, when the call exists. */
  async deviceOfCall(callId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('call')
      .select('device_id')
      .where('id', '=', callId)
      .executeTakeFirst();
    return row?.device_id;
  }

  /** The device an announcement schedule announces to, when the schedule exists. */
  async deviceOfSchedule(scheduleId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('announcement_schedule')
      .select('device_id')
      .where('id', '=', scheduleId)
      .executeTakeFirst();
    return row?.device_id;
  }

  /** The group names a campaign's selector is bounded by (null: none, it spans the fleet); undefined: no campaign. */
  async campaignGroups(campaignId: string): Promise<string[] | null | undefined> {
    const row = await this.db
      .selectFrom('campaign')
      .select('selector')
      .where('id', '=', campaignId)
      .executeTakeFirst();
    if (!row) return undefined;
    const selector = campaignSelectorSchema.safeParse(row.selector);
    return selector.success ? (selector.data.groups ?? null) : null;
  }

  async groupNames(groupIds: readonly string[]): Promise<string[]> {
    if (groupIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('device_group')
      .select('name')
      .where('id', 'in', groupIds)
      .execute();
    return rows.map((r) => r.name);
  }

  /** Every device in the groups, for filters that run per event rather than per query. */
  async members(groupIds: readonly string[]): Promise<string[]> {
    if (groupIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('device_group_member')
      .select('device_id')
      .distinct()
      .where('group_id', 'in', groupIds)
      .execute();
    return rows.map((r) => r.device_id);
  }
}
