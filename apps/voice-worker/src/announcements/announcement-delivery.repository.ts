import type { Pool } from 'pg';
import { ANNOUNCE_TOOL } from '@fleet/domain';

/** The speech of an announcement this worker took on for a session. */
export interface ClaimedAnnouncement {
  callId: string;
  arguments: Record<string, unknown>;
}

/** How the device showed the speech ended (see AnnouncementSpeaker). */
export type Heard = 'listen_start' | 'idle' | 'abort' | 'closed' | 'none';

// A claim is refused this close to the deadline: the orchestrator judges a call with no claim at its deadline, and
// a claim that saw the deadline still ahead has committed long before then.
const CLAIM_MARGIN = "interval '2 seconds'";

/**
 * The voice worker's row of an announcement's speech (the call itself is the orchestrator's: DESIGN §1). Only
 * calls the orchestrator has parked for a session are claimed: `spoken` waiting for the device, `both` once its
 * alert went out; a row per call, so a second worker or a second session never speaks it again.
 */
export class AnnouncementDeliveryRepository {
  constructor(
    private readonly pool: Pool,
    private readonly workerId: string,
  ) {}

  async claimNext(deviceId: string, sessionId: string): Promise<ClaimedAnnouncement | undefined> {
    const { rows } = await this.pool.query<ClaimedAnnouncement>(
      `WITH next AS (
         SELECT c.id, c.arguments FROM call c
          WHERE c.device_id = $1 AND c.tool = $4 AND c.verdict IS NULL AND c.cancelled_by IS NULL
            AND c.deadline_at > now() + ${CLAIM_MARGIN}
            AND ((c.arguments->>'how' = 'spoken' AND c.state = 'waiting_for_device')
              OR (c.arguments->>'how' = 'both' AND c.state = 'verifying'))
            AND NOT EXISTS (SELECT 1 FROM announcement_delivery d WHERE d.call_id = c.id)
          ORDER BY c.created_at LIMIT 1
       ), claimed AS (
         INSERT INTO announcement_delivery (call_id, session_id, worker_id)
         SELECT id, $2, $3 FROM next ON CONFLICT (call_id) DO NOTHING RETURNING call_id
       )
       SELECT next.id AS "callId", next.arguments FROM next JOIN claimed ON claimed.call_id = next.id`,
      [deviceId, sessionId, this.workerId, ANNOUNCE_TOOL],
    );
    return rows[0];
  }

  async stopped(callId: string, synthesisError: string | undefined): Promise<void> {
    await this.pool.query(
      `UPDATE announcement_delivery SET tts_stopped_at = now(), synthesis_error = $2 WHERE call_id = $1`,
      [callId, synthesisError ?? null],
    );
  }

  async finished(callId: string, heard: Heard, heardAt: Date | undefined): Promise<void> {
    await this.pool.query(
      `UPDATE announcement_delivery SET heard = $2, heard_at = $3, finished_at = now() WHERE call_id = $1`,
      [callId, heard, heardAt ?? null],
    );
  }
}
