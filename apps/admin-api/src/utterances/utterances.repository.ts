import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, databaseOn, type Database, type Pool, type Row } from '@fleet/db';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { PG_POOL } from '../infra/tokens';
import type { Tx } from '../infra/transactions';

export interface TurnRow {
  id: string;
  deviceId: string;
  source: Row<'voice_turn'>['source'];
  state: Row<'voice_turn'>['state'];
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
  calls: { id: string; tool: string; state: Row<'call'>['state']; verdict: Row<'call'>['verdict'] }[];
}

/** Voice turns started from text; the text itself lives apart (voice_transcript), deletable by retention. */
@Injectable()
export class UtterancesRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  async deviceStatus(deviceId: string): Promise<Row<'device'>['status'] | undefined> {
    return (await this.db.selectFrom('device').select('status').where('id', '=', deviceId).executeTakeFirst())
      ?.status;
  }

  async create(
    tx: Tx,
    t: { deviceId: string; text: string; hash: string; language?: string },
  ): Promise<{ id: string; state: Row<'voice_turn'>['state'] }> {
    const db = databaseOn(tx);
    await db
      .insertInto('voice_transcript')
      .values({ hash: t.hash, text: t.text })
      .onConflict((c) => c.column('hash').doNothing())
      .execute();
    return db
      .insertInto('voice_turn')
      .values({
        id: randomUUID(),
        device_id: t.deviceId,
        source: 'text',
        language: t.language ?? null,
        transcript_hash: t.hash,
      })
      .returning(['id', 'state'])
      .executeTakeFirstOrThrow();
  }

  async fail(id: string, error: string): Promise<void> {
    await this.db
      .updateTable('voice_turn')
      .set({ state: 'failed', error, finished_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  get(id: string): Promise<TurnRow | undefined> {
    return this.db
      .selectFrom('voice_turn as t')
      .leftJoin('voice_transcript as x', 'x.hash', 't.transcript_hash')
      .select((eb) => [
        't.id',
        't.device_id as deviceId',
        't.source',
        't.state',
        't.language',
        't.transcript_hash as transcriptHash',
        'x.text as transcript',
        't.tool_calls as toolCalls',
        't.reply',
        't.reply_mode as replyMode',
        't.timings',
        't.error',
        't.created_at as createdAt',
        't.finished_at as finishedAt',
        // only strings and enums inside: the JSON comes back as the columns' own types
        jsonArrayFrom(
          eb
            .selectFrom('call as c')
            .select(['c.id', 'c.tool', 'c.state', 'c.verdict'])
            .whereRef('c.voice_turn_id', '=', 't.id')
            .orderBy('c.created_at'),
        ).as('calls'),
      ])
      .where('t.id', '=', id)
      .executeTakeFirst();
  }
}
