import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, overrideBusyLock, type BusyHold, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

/** An operator's override of the busy lock (the table is the orchestrator's too: its SQL lives in @fleet/db). */
@Injectable()
export class BusyOverrideRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  override(call: { id: string; deviceId: string }, operatorId: string, reason: string): Promise<BusyHold> {
    return overrideBusyLock(this.db, call, operatorId, reason);
  }
}
