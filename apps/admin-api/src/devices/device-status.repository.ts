import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export type DeviceStatus = 'active' | 'awaiting_activation' | 'revoked' | 'decommissioned';

/** Status changes, each one atomic statement that only moves a device from the states it may leave. */
@Injectable()
export class DeviceStatusRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async statusOf(id: string): Promise<DeviceStatus | undefined> {
    const { rows } = await this.pool.query<{ status: DeviceStatus }>(
      'SELECT status FROM device WHERE id = $1',
      [id],
    );
    return rows[0]?.status;
  }

  /** The activation code is single-use: binding clears it with the challenge. */
  async bind(id: string, code: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE device SET status = 'active', activation_code = NULL, activation_challenge = NULL, updated_at = now()
        WHERE id = $1 AND status = 'awaiting_activation' AND activation_code = $2`,
      [id, code],
    );
    return rowCount === 1;
  }

  async move(id: string, from: DeviceStatus[], to: DeviceStatus): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE device SET status = $3::"DeviceStatus", updated_at = now()
        WHERE id = $1 AND status = ANY ($2::"DeviceStatus"[])`,
      [id, from, to],
    );
    return rowCount === 1;
  }
}
