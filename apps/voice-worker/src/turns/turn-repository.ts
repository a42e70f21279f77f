import { randomUUID } from 'node:crypto';
import { jsonObject, jsonParam, type Database, type Row } from '@fleet/db';

export type TurnState = Row<'voice_turn'>['state'];

export interface TurnRecord {
  id: string;
  deviceId: string;
  sessionId: string | null;
  source: Row<'voice_turn'>['source'];
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
  constructor(private readonly db: Database) {}

  async load(id: string): Promise<TurnRecord | undefined> {
    const row = await this.db
      .selectFrom('voice_turn as t')
      .leftJoin('voice_transcript as x', 'x.hash', 't.transcript_hash')
      .select([
        't.id',
        't.device_id as deviceId',
        't.session_id as sessionId',
        't.source',
        't.state',
        't.language',
        't.transcript_hash as transcriptHash',
        'x.text as transcript',
        't.timings',
        't.created_at as createdAt',
      ])
      .where('t.id', '=', id)
      .executeTakeFirst();
    return row && { ...row, timings: jsonObject(row.timings, `voice turn ${id}'s timings`) };
  }

  /** An audio turn is born when speech ends, before anyone knows what was said. */
  /** Held by the worker that recognises it until a worker takes its job: if that one dies, it is answered. */
  async createAudioTurn(t: {
    deviceId: string;
    sessionId: string;
    timings: Record<string, unknown>;
    workerId: string;
  }): Promise<string> {
    const { id } = await this.db
      .insertInto('voice_turn')
      .values({
        id: randomUUID(),
        device_id: t.deviceId,
        session_id: t.sessionId,
        source: 'audio',
        state: 'thinking',
        timings: jsonParam(t.timings),
        worker_id: t.workerId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async setTranscript(
    id: string,
    t: { text: string; hash: string; language: string; timings: Record<string, unknown> },
  ): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('voice_transcript')
        .values({ hash: t.hash, text: t.text })
        .onConflict((c) => c.column('hash').doNothing())
        .execute();
      await tx
        .updateTable('voice_turn')
        .set({ transcript_hash: t.hash, language: t.language, timings: jsonParam(t.timings) })
        .where('id', '=', id)
        .execute();
    });
  }

  async setState(id: string, state: TurnState, extra: { toolCalls?: unknown[] } = {}): Promise<void> {
    await this.db
      .updateTable('voice_turn')
      .set({ state, ...(extra.toolCalls ? { tool_calls: jsonParam(extra.toolCalls) } : {}) })
      .where('id', '=', id)
      .where('state', 'not in', ['finished', 'failed'])
      .execute();
  }

  async end(id: string, end: TurnEnd): Promise<void> {
    await this.db
      .updateTable('voice_turn')
      .set((eb) => ({
        state: end.state,
        reply: end.reply ?? null,
        reply_mode: end.replyMode ?? null,
        tool_calls: jsonParam(end.toolCalls),
        timings: jsonParam(end.timings),
        error: end.error ?? null,
        language: eb.fn.coalesce('language', eb.val(end.language ?? null)),
        finished_at: new Date(),
      }))
      .where('id', '=', id)
      .execute();
  }
}
