import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool, type Row } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface CallProgressRow {
  state: Row<'call'>['state'];
  verdict: Row<'call'>['verdict'];
  deadlineAt: Row<'call'>['deadline_at'];
}

/** The few columns a waiting agent polls (the primary key only): cheap enough to read every half second. */
@Injectable()
export class CallProgressRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async progress(callId: string): Promise<CallProgressRow | undefined> {
    return this.db
      .selectFrom('call')
      .select(['state', 'verdict', 'deadline_at as deadlineAt'])
      .where('id', '=', callId)
      .executeTakeFirst();
  }
}
