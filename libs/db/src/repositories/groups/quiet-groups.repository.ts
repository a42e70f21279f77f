import type { Pool } from '../../client/pg-pool';
import { quietHoursSchema, type QuietHours } from '@fleet/domain';

export interface GroupQuiet {
  name: string;
  timeZone: string;
  quietHours: QuietHours;
}

/**
 * The device's groups that keep quiet hours, each with its time zone: what the announcement gate holds an
 * announcement back by, in the API (one device) and in the campaign runner (each device of a campaign).
 */
export async function quietGroupsOf(pool: Pool, deviceId: string): Promise<GroupQuiet[]> {
  const { rows } = await pool.query<{ name: string; timeZone: string; quietHours: unknown }>(
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
