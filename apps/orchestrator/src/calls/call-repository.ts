import {
  approvalOfCall,
  approvalOfCampaign,
  createDatabase,
  loadCall,
  type ApprovalRecord,
  type Database,
  type Pool,
} from '@fleet/db';
import { CALL_STATES } from '@fleet/domain';
import type { CallRecord } from './call-record';

export type { ApprovalRecord } from '@fleet/db';

const PENDING_STATES = CALL_STATES.filter((s) => s !== 'finished');

export interface PolicyContext {
  /** Operator markings by tool: true sensitive, false a description's default lifted (DESIGN §4). */
  markings: ReadonlyMap<string, boolean>;
  /** Tools an operator marked read-only (true) or not a read (false) on this device (DESIGN §1). */
  readOnlyMarkings?: ReadonlyMap<string, boolean>;
  groups: { name: string; limits: unknown }[];
  boundClientId: string;
}

/** The call pipeline's reads (its writes go through the commit queue, under the partition's lease). */
export class CallRepository {
  readonly db: Database;

  constructor(readonly pool: Pool) {
    this.db = createDatabase(pool);
  }

  load(callId: string): Promise<CallRecord | undefined> {
    return loadCall(this.db, callId);
  }

  approvalOfCall(callId: string): Promise<ApprovalRecord | undefined> {
    return approvalOfCall(this.db, callId);
  }

  approvalOfCampaign(campaignId: string): Promise<ApprovalRecord | undefined> {
    return approvalOfCampaign(this.db, campaignId);
  }

  /** Operator markings and group limits of the device, read per call (an operator's change applies at once). */
  async policyContext(deviceId: string): Promise<PolicyContext> {
    const { rows } = await this.pool.query<{
      markings: Record<string, boolean> | null;
      read_only: Record<string, boolean> | null;
      groups: { name: string; limits: unknown }[] | null;
      client_id: string;
    }>(
      `SELECT d.client_id,
              (SELECT json_object_agg(m.tool_name, m.sensitive) FROM tool_marking m
                WHERE m.device_id = d.id AND m.sensitive IS NOT NULL) AS markings,
              (SELECT json_object_agg(m.tool_name, m.read_only) FROM tool_marking m
                WHERE m.device_id = d.id AND m.read_only IS NOT NULL) AS read_only,
              (SELECT json_agg(json_build_object('name', g.name, 'limits', g.limits))
                 FROM device_group_member gm JOIN device_group g ON g.id = gm.group_id WHERE gm.device_id = d.id) AS groups
         FROM device d WHERE d.id = $1`,
      [deviceId],
    );
    const row = rows[0];
    return {
      markings: new Map(Object.entries(row?.markings ?? {})),
      readOnlyMarkings: new Map(Object.entries(row?.read_only ?? {})),
      groups: row?.groups ?? [],
      boundClientId: row?.client_id ?? '',
    };
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

  /** What a replica must look at after taking a partition over, or on its regular sweep. */
  async needingAttention(
    partitions: number[],
    includeAll: boolean,
  ): Promise<{ id: string; deviceId: string }[]> {
    const { rows } = await this.pool.query<{ id: string; deviceId: string }>(
      `SELECT c.id, c.device_id AS "deviceId" FROM call c LEFT JOIN approval a ON a.call_id = c.id
        WHERE c.partition = ANY($1::smallint[]) AND c.verdict IS NULL AND (
              $2::boolean
           OR (c.state IN ('queued', 'waiting_for_device') AND c.deadline_at < now())
           OR (c.state = 'queued' AND c.created_at < now() - interval '5 seconds')
           OR (c.state = 'awaiting_approval' AND (a.id IS NULL OR a.state <> 'pending' OR a.expires_at < now()
                                                  OR a.preflight IS NULL OR c.deadline_at < now()))
           OR (c.state = 'finished' AND c.cancelled_by IS NOT NULL)
           OR (c.state = 'verifying' AND c.effect_deadline_at < now())
           -- a wake-up lost with a lease: a replica that lost its partition and took it back while the call's
           -- old step still ran skipped it then; long past any reply and readback it is settled from its row
           OR (c.state IN ('sending', 'sent')
               AND c.sent_at < now() - make_interval(secs => c.reply_timeout_ms * 3 / 1000.0 + 30)))
        ORDER BY c.created_at
        LIMIT 2000`,
      [partitions, includeAll],
    );
    return rows;
  }

  /** Unsealed calls of some partitions, by state (the queue-depth gauge). */
  async pendingByState(partitions: number[]): Promise<Record<string, number>> {
    const { rows } = await this.pool.query<{ state: string; n: number }>(
      `SELECT state, count(*)::int AS n FROM call
        WHERE partition = ANY($1::smallint[]) AND state IN (${PENDING_STATES.map((s) => `'${s}'`).join(', ')})
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

  /** The device's last status readback, for the API's device detail (not evidence). */
  async rememberStatus(deviceId: string, status: unknown): Promise<void> {
    await this.pool.query('UPDATE device SET last_status = $2, last_status_at = now() WHERE id = $1', [
      deviceId,
      JSON.stringify(status),
    ]);
  }
}
