import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import type { CallState, Verdict } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';

export interface CallProgressRow {
  state: CallState;
  verdict: Verdict | null;
  deadlineAt: Date;
}

/** The few columns a waiting agent polls (the primary key only): cheap enough to read every half second. */
@Injectable()
export class CallProgressRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async progress(callId: string): Promise<CallProgressRow | undefined> {
    const { rows } = await this.pool.query<CallProgressRow>(
      'SELECT state, verdict, deadline_at AS "deadlineAt" FROM call WHERE id = $1',
      [callId],
    );
    return rows[0];
  }
}
