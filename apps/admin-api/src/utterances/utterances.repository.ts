import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';
import type { Tx } from '../infra/transactions';

export interface TurnRow {
  id: string;
  deviceId: string;
  source: string;
  state: string;
  language: string | null;
  transcriptHash: string | null;
  transcript: string | null;
  toolCalls: unknown;
  reply: string | null;
  replyMode: string | null;
  timings: unknown;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  calls: { id: string; tool: string; state: string; verdict: string | null }[];
}

/** Voice turns started from text; the text itself lives apart (voice_transcript), deletable by retention. */
@Injectable()
export class UtterancesRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async deviceStatus(deviceId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ status: string }>('SELECT status FROM device WHERE id = $1', [
      deviceId,
    ]);
    return rows[0]?.status;
  }

  async create(
    tx: Tx,
    t: { deviceId: string; text: string; hash: string; language?: string },
  ): Promise<{ id: string; state: string }> {
    await tx.query(
      'INSERT INTO voice_transcript (hash, text) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING',
      [t.hash, t.text],
    );
    const { rows } = await tx.query<{ id: string; state: string }>(
      `INSERT INTO voice_turn (id, device_id, source, language, transcript_hash)
       VALUES (gen_random_uuid(), $1, 'text', $2, $3) RETURNING id, state`,
      [t.deviceId, t.language ?? null, t.hash],
    );
    return rows[0]!;
  }

  async fail(id: string, error: string): Promise<void> {
    await this.pool.query(
      `UPDATE voice_turn SET state = 'failed', error = $2, finished_at = now() WHERE id = $1`,
      [id, error],
    );
  }

  async get(id: string): Promise<TurnRow | undefined> {
    const { rows } = await this.pool.query<TurnRow>(
      `SELECT t.id, t.device_id AS "deviceId", t.source, t.state, t.language, t.transcript_hash AS "transcriptHash",
              x.text AS transcript, t.tool_calls AS "toolCalls", t.reply, t.reply_mode AS "replyMode", t.timings,
              t.error, t.created_at AS "createdAt", t.finished_at AS "finishedAt",
              coalesce((SELECT json_agg(json_build_object('id', c.id, 'tool', c.tool, 'state', c.state,
                                 'verdict', c.verdict) ORDER BY c.created_at)
                          FROM call c WHERE c.voice_turn_id = t.id), '[]') AS calls
         FROM voice_turn t LEFT JOIN voice_transcript x ON x.hash = t.transcript_hash
        WHERE t.id = $1`,
      [id],
    );
    return rows[0];
  }
}
