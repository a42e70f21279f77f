import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { quietHoursSchema } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';
import type { GroupQuiet } from './announcement-gate';

@Injectable()
export class AnnouncementsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** The device's groups that keep quiet hours, each with its time zone. */
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

  async deadlineOf(callId: string): Promise<{ deadlineAt: Date; holdUntil: Date | null } | undefined> {
    const { rows } = await this.pool.query<{ deadlineAt: Date; holdUntil: Date | null }>(
      `SELECT deadline_at AS "deadlineAt", hold_until AS "holdUntil" FROM call WHERE id = $1`,
      [callId],
    );
    return rows[0];
  }
}
