import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type NewAuditEvent, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

/** One audit event as written (the same row a call's own INSERT may carry, libs/db NewAuditEvent). */
export type AuditRow = NewAuditEvent;

@Injectable()
export class AuditRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /** The rows in one statement (autocommitted): all of them are written, or none. */
  async insertMany(rows: readonly AuditRow[]): Promise<void> {
    await this.db
      .insertInto('audit_event')
      .values(
        rows.map((row) => ({
          operator_id: row.operatorId,
          api_key_id: row.apiKeyId,
          action: row.action,
          target_type: row.targetType,
          target_id: row.targetId,
          // jsonb as text: pg would send a JS array as a Postgres array
          details: row.details === null ? null : JSON.stringify(row.details),
          ip: row.ip,
          user_agent: row.userAgent,
        })),
      )
      .execute();
  }
}
