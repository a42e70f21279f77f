import { Inject, Injectable } from '@nestjs/common';
import { quietGroupsOf, type GroupQuiet, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

@Injectable()
export class AnnouncementsRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** The device's groups that keep quiet hours, each with its time zone. */
  quietGroupsOf(deviceId: string): Promise<GroupQuiet[]> {
    return quietGroupsOf(this.pool, deviceId);
  }

  async deadlineOf(callId: string): Promise<{ deadlineAt: Date; holdUntil: Date | null } | undefined> {
    const { rows } = await this.pool.query<{ deadlineAt: Date; holdUntil: Date | null }>(
      `SELECT deadline_at AS "deadlineAt", hold_until AS "holdUntil" FROM call WHERE id = $1`,
      [callId],
    );
    return rows[0];
  }
}
