import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool, type Row } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export type DeviceStatus = Row<'device'>['status'];

/** Status changes, each one atomic statement that only moves a device from the states it may leave. */
@Injectable()
export class DeviceStatusRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async statusOf(id: string): Promise<DeviceStatus | undefined> {
    const row = await this.db.selectFrom('device').select('status').where('id', '=', id).executeTakeFirst();
    return row?.status;
  }

  /** The activation code is single-use: binding clears it with the challenge. */
  async bind(id: string, code: string): Promise<boolean> {
    const { numUpdatedRows } = await this.db
      .updateTable('device')
      .set({ status: 'active', activation_code: null, activation_challenge: null, updated_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'awaiting_activation')
      .where('activation_code', '=', code)
      .executeTakeFirst();
    return numUpdatedRows === 1n;
  }

  async move(id: string, from: DeviceStatus[], to: DeviceStatus): Promise<boolean> {
    if (from.length === 0) return false;
    const { numUpdatedRows } = await this.db
      .updateTable('device')
      .set({ status: to, updated_at: new Date() })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return numUpdatedRows === 1n;
  }
}
