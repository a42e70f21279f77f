import {
  approvalOfCall,
  approvalOfCampaign,
  approvedToolOfTarget,
  createDatabase,
  loadCall,
  loadCallsToRun,
  TurnBatcher,
  type ApprovalRecord,
  type CallToRun,
  type Database,
  type Pool,
} from '@fleet/db';
import { CALL_STATES } from '@fleet/domain';
import type { CallRecord } from './call-record';

export type { ApprovalRecord, CallToRun } from '@fleet/db';
export type { DevicePolicy as PolicyContext } from '@fleet/db';

const PENDING_STATES = CALL_STATES.filter((s) => s !== 'finished');

/** The call pipeline's reads (its writes go through the commit queue, under the partition's lease). */
export class CallRepository {
  readonly db: Database;
  /** The loads of calls woken together go out as one statement (a fleet-wide wave wakes hundreds at once). */
  private readonly toRun: TurnBatcher<string, CallToRun | undefined>;

  constructor(readonly pool: Pool) {
    this.db = createDatabase(pool);
    this.toRun = new TurnBatcher(async (ids) => {
      const loaded = await loadCallsToRun(this.pool, ids);
      return ids.map((id) => loaded.get(id));
    });
  }

  load(callId: string): Promise<CallRecord | undefined> {
    return loadCall(this.db, callId);
  }

  /** A call to run with its device's policy, read at once (an operator's change applies to the next call). */
  loadToRun(callId: string): Promise<CallToRun | undefined> {
    return this.toRun.submit(callId);
  }

  approvalOfCall(callId: string): Promise<ApprovalRecord | undefined> {
    return approvalOfCall(this.db, callId);
  }

  approvalOfCampaign(campaignId: string): Promise<ApprovalRecord | undefined> {
    return approvalOfCampaign(this.db, campaignId);
  }

  /** The tool's hash the campaign's approval bound on this device (DESIGN §4). */
  approvedToolOfTarget(campaignId: string, deviceId: string): Promise<string | null | undefined> {
    return approvedToolOfTarget(this.db, campaignId, deviceId);
  }

  /** The device's bound Client-Id (hashed): a reboot's proof must come from it (DESIGN §5). */
  async boundClientId(deviceId: string): Promise<string> {
    const { rows } = await this.pool.query<{ client_id: string }>(
      'SELECT client_id FROM device WHERE id = $1',
      [deviceId],
    );
    return rows[0]?.client_id ?? '';
  }

  /** A registry firmware by the sha256 in its download URL (DESIGN §4: firmware only from the registry). */
  async firmwareBySha(sha256: string): Promise<{ id: string; version: string } | undefined> {
    const { rows } = await this.pool.query<{ id: string; version: string }>(
      'SELECT id, version FROM firmware WHERE sha256 = $1',
      [sha256],
    );
    return rows[0];
  }

  /** Calls of a device that wait for it to be back and discovered, oldest first. */
  async waitingFor(deviceId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM call WHERE device_id = $1 AND verdict IS NULL AND state IN ('queued', 'waiting_for_device')
        ORDER BY created_at`,
      [deviceId],
    );
    return rows.map((r) => r.id);
  }

  /** Every unsealed call of some partitions: what a replica looks at after taking them over. */
  async unsealed(partitions: number[]): Promise<{ id: string; deviceId: string }[]> {
    const { rows } = await this.pool.query<{ id: string; deviceId: string }>(
      `SELECT id, device_id AS "deviceId" FROM call
        WHERE partition = ANY($1::smallint[]) AND verdict IS NULL ORDER BY created_at`,
      [partitions],
    );
    return rows;
  }

  /**
   * The sweep's work (DESIGN §1: deadlines are rows, not timers): the unsealed calls of some partitions whose due
   * time has come, oldest first, and the earliest due time still ahead (when to look again). A call is due when
   * its wait can end without anyone telling: its delivery deadline, its approval's expiry or decision (or the
   * pre-flight its approval still needs), its effect deadline, a cancellation to seal, a wake-up presumed lost
   * (queued 5 s), or a request long past any reply and readback (a wake-up lost with a lease: a replica that lost
   * its partition and took it back while the call's old step still ran skipped it then).
   */
  async dueForSweep(
    partitions: number[],
  ): Promise<{ due: { id: string; deviceId: string }[]; next: Date | null }> {
    const { rows } = await this.pool.query<{ id: string | null; deviceId: string | null; next: Date | null }>(
      `WITH unsealed AS MATERIALIZED (
         SELECT c.id, c.device_id, c.created_at,
                CASE c.state
                  WHEN 'queued' THEN least(c.deadline_at, greatest(c.created_at + interval '5 seconds', c.hold_until))
                  WHEN 'waiting_for_device' THEN c.deadline_at
                  WHEN 'awaiting_approval' THEN
                    CASE WHEN a.id IS NULL OR a.state <> 'pending' OR a.preflight IS NULL THEN c.created_at
                         ELSE least(a.expires_at, c.deadline_at) END
                  WHEN 'verifying' THEN c.effect_deadline_at
                  WHEN 'sending' THEN c.sent_at + make_interval(secs => c.reply_timeout_ms * 3 / 1000.0 + 30)
                  WHEN 'sent' THEN c.sent_at + make_interval(secs => c.reply_timeout_ms * 3 / 1000.0 + 30)
                  WHEN 'finished' THEN CASE WHEN c.cancelled_by IS NOT NULL THEN c.created_at END
                END AS due_at
           FROM call c LEFT JOIN approval a ON a.call_id = c.id
          WHERE c.partition = ANY($1::smallint[]) AND c.verdict IS NULL
       )
       (SELECT id, device_id AS "deviceId", NULL::timestamptz AS next FROM unsealed
         WHERE due_at <= now() ORDER BY created_at LIMIT 2000)
       UNION ALL
       SELECT NULL, NULL, min(due_at) FROM unsealed WHERE due_at > now()`,
      [partitions],
    );
    const due = rows.flatMap((r) => (r.id && r.deviceId ? [{ id: r.id, deviceId: r.deviceId }] : []));
    return { due, next: rows.find((r) => r.id === null)?.next ?? null };
  }

  /** Unsealed calls of some partitions, by state (the queue-depth gauge). */
  async pendingByState(partitions: number[]): Promise<Record<string, number>> {
    const { rows } = await this.pool.query<{ state: string; n: number }>(
      `SELECT state, count(*)::int AS n FROM call
        WHERE partition = ANY($1::smallint[]) AND verdict IS NULL AND state IN (${PENDING_STATES.map((s) => `'${s}'`).join(', ')})
        GROUP BY state`,
      [partitions],
    );
    const counts: Record<string, number> = Object.fromEntries(PENDING_STATES.map((s) => [s, 0]));
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  /** Boot check-ins of the bound identity since a moment (a reboot's or an upgrade's proof). */
  async bootsSince(
    deviceId: string,
    since: Date,
    clientId: string,
  ): Promise<{ at: Date; version: string | null; otaLabel: string | null }[]> {
    const { rows } = await this.pool.query<{ at: Date; version: string | null; otaLabel: string | null }>(
      `SELECT received_at AS at, firmware_version AS version, ota_label AS "otaLabel" FROM boot_report
        WHERE device_id = $1 AND client_id = $3 AND received_at >= $2 ORDER BY received_at`,
      [deviceId, since, clientId],
    );
    return rows;
  }
}
