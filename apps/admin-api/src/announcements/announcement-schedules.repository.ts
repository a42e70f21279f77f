import { Inject, Injectable } from '@nestjs/common';
import type { Role } from '@fleet/auth';
import type { Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface ScheduleRow {
  id: string;
  deviceId: string;
  arguments: Record<string, unknown>;
  deadlineS: number;
  cron: string | null;
  runAt: Date | null;
  timeZone: string;
  state: 'active' | 'paused' | 'cancelled' | 'finished';
  nextRunAt: Date | null;
  runs: number;
  lastCallId: string | null;
  lastError: string | null;
  createdBy: string;
  apiKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A due schedule, with its creator as the run's requester (who must still be allowed to announce). */
export type DueSchedule = ScheduleRow & {
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  /** The key the schedule was made with, as it is now (null: made in a session). */
  key: { role: Role; revoked: boolean; groupScoped: boolean; deviceInGroups: boolean } | null;
};

const COLUMNS = `s.id, s.device_id AS "deviceId", s.arguments, s.deadline_s AS "deadlineS", s.cron, s.run_at AS "runAt",
  s.time_zone AS "timeZone", s.state, s.next_run_at AS "nextRunAt", s.runs, s.last_call_id AS "lastCallId",
  s.last_error AS "lastError", s.created_by AS "createdBy", s.api_key_id AS "apiKeyId", s.created_at AS "createdAt",
  s.updated_at AS "updatedAt"`;

/** Moves a schedule may make, each guarded by the states it leaves (a cancelled one never comes back). */
const MOVES = {
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  cancel: { from: ['active', 'paused'], to: 'cancelled' },
} as const;
export type ScheduleMove = keyof typeof MOVES;

@Injectable()
export class AnnouncementSchedulesRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async create(s: {
    deviceId: string;
    arguments: Record<string, unknown>;
    deadlineS: number;
    cron: string | null;
    runAt: Date | null;
    timeZone: string;
    nextRunAt: Date;
    createdBy: string;
    apiKeyId: string | null;
  }): Promise<ScheduleRow> {
    const { rows } = await this.pool.query<ScheduleRow>(
      `INSERT INTO announcement_schedule AS s (id, device_id, arguments, deadline_s, cron, run_at, time_zone,
                                               next_run_at, created_by, api_key_id)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [
        s.deviceId,
        JSON.stringify(s.arguments),
        s.deadlineS,
        s.cron,
        s.runAt,
        s.timeZone,
        s.nextRunAt,
        s.createdBy,
        s.apiKeyId,
      ],
    );
    return rows[0]!;
  }

  async get(id: string): Promise<ScheduleRow | undefined> {
    const { rows } = await this.pool.query<ScheduleRow>(
      `SELECT ${COLUMNS} FROM announcement_schedule s WHERE s.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** `groupIds`: only the schedules of devices in these groups (a bounded key's list). */
  async list(
    filter: { deviceId?: string; state?: string },
    limit: number,
    groupIds?: readonly string[],
  ): Promise<ScheduleRow[]> {
    const { rows } = await this.pool.query<ScheduleRow>(
      `SELECT ${COLUMNS} FROM announcement_schedule s
        WHERE ($1::text IS NULL OR s.device_id = $1)
          AND ($2::text IS NULL OR s.state = $2::"AnnouncementScheduleState")
          AND ($4::uuid[] IS NULL OR EXISTS (SELECT 1 FROM device_group_member m
                                              WHERE m.device_id = s.device_id AND m.group_id = ANY($4::uuid[])))
        ORDER BY s.created_at DESC, s.id LIMIT $3`,
      [filter.deviceId ?? null, filter.state ?? null, limit, groupIds ?? null],
    );
    return rows;
  }

  /**
   * Pauses a schedule whose creator may no longer run it, saying why (a person resumes it, or not); a one-time
   * schedule whose run this was is finished already and only says why it made no call.
   */
  async pauseForCreator(id: string, reason: string): Promise<void> {
    await this.pool.query(
      `UPDATE announcement_schedule
          SET state = CASE WHEN state = 'active' THEN 'paused'::"AnnouncementScheduleState" ELSE state END,
              last_error = $2, updated_at = now()
        WHERE id = $1`,
      [id, `paused: ${reason}`],
    );
  }

  /** The move, or undefined when the schedule is not in a state it leaves. Resuming takes the next run given. */
  async move(id: string, move: ScheduleMove, nextRunAt?: Date | null): Promise<ScheduleRow | undefined> {
    const { from, to } = MOVES[move];
    const { rows } = await this.pool.query<ScheduleRow>(
      `UPDATE announcement_schedule s
          SET state = $3::text::"AnnouncementScheduleState", updated_at = now(),
              next_run_at = CASE WHEN $3::text = 'active' THEN $4::timestamptz
                                 WHEN $3::text = 'cancelled' THEN NULL ELSE s.next_run_at END
        WHERE s.id = $1 AND s.state::text = ANY($2::text[])
       RETURNING ${COLUMNS}`,
      [id, from, to, nextRunAt ?? null],
    );
    return rows[0];
  }

  /**
   * Takes the due runs of active schedules and moves each to its next run (or finishes a one-time one) in one
   * transaction: another API replica skips the rows this one holds, so a run is taken once.
   */
  async takeDue(limit: number, next: (s: ScheduleRow) => Date | null): Promise<DueSchedule[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<DueSchedule>(
        `SELECT ${COLUMNS}, o.email, o.name, o.role, o.disabled_at IS NOT NULL AS disabled,
                CASE WHEN k.id IS NULL THEN NULL ELSE json_build_object(
                  'role', k.role, 'revoked', k.revoked_at IS NOT NULL, 'groupScoped', k.group_scoped,
                  'deviceInGroups', EXISTS (SELECT 1 FROM api_key_group kg
                                              JOIN device_group_member m ON m.group_id = kg.group_id
                                             WHERE kg.api_key_id = k.id AND m.device_id = s.device_id)) END AS key
           FROM announcement_schedule s JOIN operator o ON o.id = s.created_by
           LEFT JOIN api_key k ON k.id = s.api_key_id
          WHERE s.state = 'active' AND s.next_run_at <= now()
          ORDER BY s.next_run_at LIMIT $1
          FOR UPDATE OF s SKIP LOCKED`,
        [limit],
      );
      for (const s of rows) {
        const after = next(s);
        await client.query(
          `UPDATE announcement_schedule SET next_run_at = $2, runs = runs + 1, updated_at = now(),
                  state = CASE WHEN $2::timestamptz IS NULL THEN 'finished' ELSE state END
            WHERE id = $1`,
          [s.id, after],
        );
      }
      await client.query('COMMIT');
      return rows;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async recordRun(id: string, outcome: { callId: string } | { error: string }): Promise<void> {
    await this.pool.query(
      `UPDATE announcement_schedule SET last_call_id = coalesce($2, last_call_id), last_error = $3 WHERE id = $1`,
      [id, 'callId' in outcome ? outcome.callId : null, 'error' in outcome ? outcome.error : null],
    );
  }

  /** The time zone of the device's first group (by name), where schedules without one of their own run. */
  async groupTimeZoneOf(deviceId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ timeZone: string }>(
      `SELECT g.time_zone AS "timeZone" FROM device_group g JOIN device_group_member m ON m.group_id = g.id
        WHERE m.device_id = $1 ORDER BY g.name LIMIT 1`,
      [deviceId],
    );
    return rows[0]?.timeZone;
  }
}
