import type { Pool } from 'pg';
import { quietHoursSchema, type QuietHours } from '@fleet/domain';

export interface GroupQuiet {
  name: string;
  timeZone: string;
  quietHours: QuietHours;
}

/** What the campaign runner reads for an announcement campaign's devices besides the campaign's own rows. */
export class AnnouncementCampaignRepository {
  constructor(private readonly pool: Pool) {}

  /** The device's groups that keep quiet hours, each with its time zone (as the API's gate reads them). */
  async quietGroupsOf(deviceId: string): Promise<GroupQuiet[]> {
    const { rows } = await this.pool.query<{ name: string; timeZone: string; quietHours: unknown }>(
      `SELECT g.name, g.time_zone AS "timeZone", g.quiet_hours AS "quietHours"
         FROM device_group g JOIN device_group_member m ON m.group_id = g.id
        WHERE m.device_id = $1 AND g.quiet_hours IS NOT NULL`,
      [deviceId],
    );
    return rows.flatMap((r) => {
      const quiet = quietHoursSchema.safeParse(r.quietHours);
      return quiet.success ? [{ name: r.name, timeZone: r.timeZone, quietHours: quiet.data }] : [];
    });
  }

  /**
   * How the effect row of the target's call says it was observed (`alert_published`, `playback_observed`), if
   * the call has one.
   */
  async effectMethod(targetId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ method: string | null }>(
      `SELECT e.payload->>'method' AS method
         FROM campaign_target t JOIN evidence e ON e.call_id = t.call_id AND e.stage = 'effect'
        WHERE t.id = $1
        LIMIT 1`,
      [targetId],
    );
    return rows[0]?.method ?? undefined;
  }
}
