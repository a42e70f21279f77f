import type { Pool } from 'pg';

export type TurnState = 'listening' | 'thinking' | 'calling' | 'speaking' | 'finished' | 'failed';

export interface TurnRecord {
  id: string;
  deviceId: string;
  sessionId: string | null;
  source: 'text' | 'audio';
  state: TurnState;
  language: string | null;
  transcriptHash: string | null;
  /** Null when retention deleted it, or an audio turn has no transcript yet. */
  transcript: string | null;
  timings: Record<string, unknown>;
  createdAt: Date;
}

export interface TurnEnd {
  state: 'finished' | 'failed';
  reply?: string;
  replyMode?: 'spoken' | 'text';
  toolCalls: unknown[];
  timings: Record<string, unknown>;
  error?: string;
  /** The language the reply was given in, kept where the turn did not state one. */
  language?: string;
}

/** voice_turn and voice_transcript (the text lives apart, by hash, so retention can delete it). */
export class TurnRepository {
  constructor(private readonly pool: Pool) {}

  async load(id: string): Promise<TurnRecord | undefined> {
    const { rows } = await this.pool.query<TurnRecord>(
      `SELECT t.id, t.device_id AS "deviceId", t.session_id AS "sessionId", t.source, t.state, t.language,
              t.transcript_hash AS "transcriptHash", x.text AS transcript, t.timings, t.created_at AS "createdAt"
         FROM voice_turn t LEFT JOIN voice_transcript x ON x.hash = t.transcript_hash
        WHERE t.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** An audio turn is born when speech ends, before anyone knows what was said. */
  /** Held by the worker that recognises it until a worker takes its job: if that one dies, it is answered. */
  async createAudioTurn(t: {
    deviceId: string;
    sessionId: string;
    timings: Record<string, unknown>;
    workerId: string;
  }): Promise<string> {
    const { rows } = await this.pool.query<{ id: string }>(
      `INSERT INTO voice_turn (id, device_id, session_id, source, state, timings, worker_id)
       VALUES (gen_random_uuid(), $1, $2, 'audio', 'thinking', $3, $4) RETURNING id`,
      [t.deviceId, t.sessionId, JSON.stringify(t.timings), t.workerId],
    );
    return rows[0]!.id;
  }

  async setTranscript(
    id: string,
    t: { text: string; hash: string; language: string; timings: Record<string, unknown> },
  ): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        'INSERT INTO voice_transcript (hash, text) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING',
        [t.hash, t.text],
      );
      await client.query(
        'UPDATE voice_turn SET transcript_hash = $2, language = $3, timings = $4 WHERE id = $1',
        [id, t.hash, t.language, JSON.stringify(t.timings)],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
  }

  async setState(id: string, state: TurnState, extra: { toolCalls?: unknown[] } = {}): Promise<void> {
    await this.pool.query(
      `UPDATE voice_turn SET state = $2, tool_calls = coalesce($3::jsonb, tool_calls)
        WHERE id = $1 AND state NOT IN ('finished', 'failed')`,
      [id, state, extra.toolCalls ? JSON.stringify(extra.toolCalls) : null],
    );
  }

  async end(id: string, end: TurnEnd): Promise<void> {
    await this.pool.query(
      `UPDATE voice_turn SET state = $2, reply = $3, reply_mode = $4, tool_calls = $5, timings = $6, error = $7,
              language = coalesce(language, $8), finished_at = now()
        WHERE id = $1`,
      [
        id,
        end.state,
        end.reply ?? null,
        end.replyMode ?? null,
        JSON.stringify(end.toolCalls),
        JSON.stringify(end.timings),
        end.error ?? null,
        end.language ?? null,
      ],
    );
  }
}
