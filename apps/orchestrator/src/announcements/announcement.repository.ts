import type { Pool } from 'pg';
import type { SpokenDelivery } from '../verification/announcement-judgement';

/** What the runner reads of an announcement besides its call row: its hold and how far its speech got. */
export interface AnnouncementFacts {
  /** The device's dialect as registered (a replica that has not seen it connect yet still knows it). */
  dialect: string;
  holdUntil: Date | null;
  delivery: SpokenDelivery | undefined;
}

export class AnnouncementRepository {
  constructor(private readonly pool: Pool) {}

  async facts(callId: string): Promise<AnnouncementFacts> {
    const { rows } = await this.pool.query<
      { dialect: string; holdUntil: Date | null } & Partial<SpokenDelivery>
    >(
      `SELECT dev.dialect, c.hold_until AS "holdUntil", d.session_id AS "sessionId", d.speaking_at AS "speakingAt",
              d.tts_stopped_at AS "ttsStoppedAt", d.synthesis_error AS "synthesisError", d.heard,
              d.heard_at AS "heardAt", d.finished_at AS "finishedAt"
         FROM call c JOIN device dev ON dev.id = c.device_id
         LEFT JOIN announcement_delivery d ON d.call_id = c.id
        WHERE c.id = $1`,
      [callId],
    );
    const row = rows[0];
    if (!row) return { dialect: 'xiaozhi', holdUntil: null, delivery: undefined };
    const delivery: SpokenDelivery | undefined = row.sessionId
      ? {
          sessionId: row.sessionId,
          speakingAt: row.speakingAt!,
          ttsStoppedAt: row.ttsStoppedAt ?? null,
          synthesisError: row.synthesisError ?? null,
          heard: row.heard ?? null,
          heardAt: row.heardAt ?? null,
          finishedAt: row.finishedAt ?? null,
        }
      : undefined;
    return { dialect: row.dialect, holdUntil: row.holdUntil, delivery };
  }
}
