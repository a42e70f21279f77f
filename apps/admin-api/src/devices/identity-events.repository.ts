import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface IdentityChangeView {
  at: string;
  field: 'board' | 'chip' | 'client_id' | 'serial';
  /** For `client_id`, fingerprints (the first 8 hex of the hashes): never the Client-Id itself. */
  previous: string | null;
  current: string | null;
  source: 'check_in' | 'proof' | 'operator';
  bootReportId: string | null;
  quarantineId: string | null;
  operatorId: string | null;
}

const shown = (field: string, value: string | null) =>
  field === 'client_id' && value !== null ? value.slice(0, 8) : value;

/** DESIGN §3: what changed about what a device is (board, chip, Client-Id, serial), newest first. */
@Injectable()
export class IdentityEventsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async recent(deviceId: string, limit: number): Promise<IdentityChangeView[]> {
    const rows = await this.db
      .selectFrom('device_identity_event')
      .select([
        'at',
        'field',
        'previous',
        'current',
        'source',
        'boot_report_id',
        'quarantine_id',
        'operator_id',
      ])
      .where('device_id', '=', deviceId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      at: r.at.toISOString(),
      field: r.field,
      previous: shown(r.field, r.previous),
      current: shown(r.field, r.current),
      source: r.source,
      bootReportId: r.boot_report_id,
      quarantineId: r.quarantine_id,
      operatorId: r.operator_id,
    }));
  }
}
