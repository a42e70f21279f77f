import { randomUUID } from 'node:crypto';
import type { QueryConfig } from 'pg';
import { evidenceHash, GENESIS_HASH, partitionOf, SEAL_LINK } from '@fleet/domain';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createDatabase, type Database } from '../../client/kysely';
import { createPgPool, type Pool } from '../../client/pg-pool';
import type { CallStep } from '../calls/call-step';
import { callStepsRepository } from '../calls/call-steps.repository';
import { CommitQueue, LeaseLostError } from './commit-queue';

const DEVICES = ['a0:85:e3:00:02:01', 'a0:85:e3:00:02:02', 'a0:85:e3:00:02:03'];
const LEASE = { name: 'steps-lease', token: '3' };
const HOLDER = 'writer-steps';

describe('call steps through the commit queue', () => {
  let testDb: TestDatabase;
  let pool: Pool;
  let db: Database;
  let operator: string;
  /** Statements sent through the pool (text of each), to count round trips. */
  const sent: string[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase();
    pool = createPgPool(testDb.url, { max: 4 });
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | QueryConfig;
      sent.push(typeof first === 'string' ? first : first.text);
      return query(...args);
    };
    db = createDatabase(pool);
    for (const id of DEVICES)
      await db.insertInto('device').values({ id, client_id: 'hash', updated_at: new Date() }).execute();
    operator = randomUUID();
    await db
      .insertInto('operator')
      .values({ id: operator, email: 'o@localhost', name: 'O', role: 'operator' })
      .execute();
    await db
      .insertInto('service_lease')
      .values({ ...LEASE, holder: HOLDER, expires_at: new Date(Date.now() + 600_000) })
      .execute();
  });
  afterAll(async () => {
    await pool.end();
    await testDb.drop();
  });

  const queue = (o: { holder?: string; maxConcurrentBatches?: number } = {}) =>
    new CommitQueue(pool, o.holder ?? HOLDER, () => LEASE, {
      maxConcurrentBatches: o.maxConcurrentBatches ?? 1,
      maxBatchSize: 50,
    });

  /** An operator's cancellation as the API makes it: the row finished, not yet sealed. */
  const cancel = (id: string) =>
    db
      .updateTable('call')
      .set({ state: 'finished', cancelled_by: operator, cancel_reason: 'wrong device' })
      .where('id', '=', id)
      .execute();

  async function newCall(device: string): Promise<string> {
    const id = randomUUID();
    await db
      .insertInto('call')
      .values({
        id,
        device_id: device,
        partition: partitionOf(device),
        tool: 'self.get_device_status',
        arguments: '{}',
        origin: 'operator',
        deadline_at: new Date(Date.now() + 60_000),
      })
      .execute();
    return id;
  }

  const sending = (callId: string, device: string, jsonrpcId = 1): CallStep => ({
    partition: partitionOf(device),
    callId,
    deviceId: device,
    transition: { to: 'sending', jsonrpcId, connectionId: 'c-1', catalogVersionId: null },
    rows: [
      { stage: 'discovery', payload: { board: 'b' } },
      { stage: 'decision', payload: { outcome: 'allowed' } },
      { stage: 'parameters', payload: { arguments: {} } },
    ],
  });
  const sealing = (callId: string, device: string, deviceStatus?: unknown): CallStep => ({
    partition: partitionOf(device),
    callId,
    deviceId: device,
    transition: {
      to: 'finished',
      verdict: 'verified',
      reason: 'the reply is the effect',
      result: { text: '{}', isError: false },
      sealedAt: new Date(),
      ...(deviceStatus === undefined ? {} : { deviceStatus }),
    },
    rows: [
      { stage: 'response', payload: { outcome: 'reply' } },
      { stage: 'effect', payload: { method: 'reply_is_effect' } },
    ],
  });
  const chainOf = (device: string) =>
    db
      .selectFrom('evidence')
      .select(['call_id', 'stage', 'seq', 'payload', 'prev_hash', 'hash', 'created_at'])
      .where('device_id', '=', device)
      .orderBy('seq')
      .execute();
  const callRow = (id: string) =>
    db
      .selectFrom('call')
      .select(['state', 'verdict', 'jsonrpc_id', 'sent_at', 'sealed_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('moves a call to sending with its rows, then seals it with its seal link, each row hashed onto the one before', async () => {
    const q = queue();
    const device = DEVICES[0]!;
    const callId = await newCall(device);
    const moved = await q.step(sending(callId, device, 7));
    expect(moved).toMatchObject({ moved: true, sentAt: expect.any(Date) });
    expect(await callRow(callId)).toMatchObject({ state: 'sending', jsonrpc_id: 7 });
    expect(await q.step(sealing(callId, device, { audio_speaker: { volume: 40 } }))).toEqual({ moved: true });
    expect(await callRow(callId)).toMatchObject({ state: 'finished', verdict: 'verified' });
    const rows = await chainOf(device);
    expect(rows.map((r) => r.stage)).toEqual([
      'discovery',
      'decision',
      'parameters',
      'response',
      'effect',
      SEAL_LINK,
    ]);
    let prev = GENESIS_HASH;
    for (const r of rows) {
      expect(r.prev_hash).toBe(prev);
      expect(r.hash).toBe(
        evidenceHash(prev, {
          callId,
          deviceId: device,
          stage: r.stage,
          seq: r.seq,
          payload: r.payload,
          createdAt: r.created_at.toISOString(),
        }),
      );
      prev = r.hash;
    }
    const status = await db
      .selectFrom('device')
      .select('last_status')
      .where('id', '=', device)
      .executeTakeFirstOrThrow();
    expect(status.last_status).toEqual({ audio_speaker: { volume: 40 } });
  });

  it('moves a call to sending once, then sent once, and parks nothing a cancellation finished', async () => {
    const q = queue();
    const device = DEVICES[0]!;
    const callId = await newCall(device);
    const step = sending(callId, device);
    expect(await q.step(step)).toMatchObject({ moved: true });
    expect(await q.step({ ...step, rows: [] })).toEqual({ moved: false });
    const sentStep: CallStep = { ...step, transition: { to: 'sent' }, rows: [] };
    expect(await q.step(sentStep)).toEqual({ moved: true });
    expect(await q.step(sentStep)).toEqual({ moved: false });
    expect(await callRow(callId)).toMatchObject({ state: 'sent' });
    await q.step(sealing(callId, device));

    const cancelled = await newCall(device);
    await cancel(cancelled);
    const park: CallStep = { ...step, callId: cancelled, transition: { to: 'waiting_for_device' }, rows: [] };
    expect(await q.step(park)).toEqual({ moved: false });
  });

  it('writes the steps of calls on several devices as one statement', async () => {
    const q = queue();
    const calls = await Promise.all(DEVICES.map((d) => newCall(d)));
    sent.length = 0;
    const outcomes = await Promise.all(calls.map((id, i) => q.step(sending(id, DEVICES[i]!))));
    expect(outcomes.every((o) => o.moved)).toBe(true);
    // One statement for the three (the chain heads of devices it has not seen first: one more).
    expect(sent.filter((text) => /apply|WITH fence/.test(text))).toHaveLength(1);
    expect(sent.length).toBeLessThanOrEqual(2);
    for (const [i, id] of calls.entries()) await q.step(sealing(id, DEVICES[i]!));
  });

  it('does not move a cancelled call, writes none of its rows, and chains the next call onto the head as it was', async () => {
    const q = queue();
    const device = DEVICES[1]!;
    const before = await chainOf(device);
    const cancelled = await newCall(device);
    await cancel(cancelled);
    expect(await q.step(sending(cancelled, device))).toEqual({ moved: false });
    const next = await newCall(device);
    expect(await q.step(sending(next, device))).toMatchObject({ moved: true });
    const after = await chainOf(device);
    expect(after.filter((r) => r.call_id === cancelled)).toHaveLength(0);
    expect(after[before.length]!.prev_hash).toBe(before.at(-1)!.hash);
    await q.step(sealing(next, device));
  });

  it('answers a `sent` that its call’s next step overtook without writing it', async () => {
    const q = queue();
    const device = DEVICES[2]!;
    const callId = await newCall(device);
    await q.step(sending(callId, device));
    // Hold the only batch slot so `sent` and the seal wait together.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = q.submit(partitionOf(device), () => gate);
    const sentStep = q.step({
      partition: partitionOf(device),
      callId,
      deviceId: device,
      transition: { to: 'sent' },
      rows: [],
    });
    const sealed = q.step(sealing(callId, device));
    release();
    await held;
    expect(await sentStep).toEqual({ moved: false });
    expect(await sealed).toEqual({ moved: true });
    expect(await callRow(callId)).toMatchObject({ state: 'finished' });
  });

  it('refuses a step under a lease this replica does not hold, and moves nothing', async () => {
    const stranger = queue({ holder: 'another-replica' });
    const device = DEVICES[0]!;
    const callId = await newCall(device);
    await expect(stranger.step(sending(callId, device))).rejects.toBeInstanceOf(LeaseLostError);
    expect(await callRow(callId)).toMatchObject({ state: 'queued', jsonrpc_id: null });
    expect((await chainOf(device)).filter((r) => r.call_id === callId)).toHaveLength(0);
  });

  it('cannot seal a call without its seal link: the database refuses the verdict', async () => {
    const device = DEVICES[0]!;
    const callId = await newCall(device);
    await expect(
      callStepsRepository.apply(
        pool,
        HOLDER,
        [LEASE],
        [
          {
            callId,
            deviceId: device,
            lease: LEASE.name,
            to: 'finished',
            verdict: 'verified',
            reason: 'r',
            sealedAt: new Date().toISOString(),
          },
        ],
        [],
      ),
    ).rejects.toThrow(/without its seal/);
    expect(await callRow(callId)).toMatchObject({ verdict: null });
  });

  it('lets one step that cannot be written fail alone, and commits the others of its batch', async () => {
    const q = queue();
    const [a, b] = [DEVICES[0]!, DEVICES[1]!];
    const good = await newCall(a);
    const bad = await newCall(b);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = q.submit(partitionOf(a), () => gate);
    const fine = q.step(sending(good, a));
    // A stage Postgres does not know fails the statement; alone, it fails only its own step.
    const broken = q.step({
      ...sending(bad, b),
      rows: [{ stage: 'not-a-stage' as never, payload: {} }],
    });
    release();
    await held;
    await expect(broken).rejects.toThrow(/EvidenceStage/);
    expect(await fine).toMatchObject({ moved: true });
    expect(await callRow(bad)).toMatchObject({ state: 'queued' });
    await q.step(sealing(good, a));
  });

  it("commits a step carrying a device's U+0000 and lone surrogate, with the others of its batch, as U+FFFD", async () => {
    const q = queue();
    const [a, b] = [DEVICES[0]!, DEVICES[1]!];
    const [poisoned, other] = [await newCall(a), await newCall(b)];
    await Promise.all([q.step(sending(poisoned, a)), q.step(sending(other, b))]);
    const sealed = sealing(poisoned, a);
    const words: CallStep = {
      ...sealed,
      transition: {
        ...sealed.transition,
        reason: 'the device said "\u0000\ud800"',
      } as CallStep['transition'],
      rows: [
        { stage: 'response', payload: { outcome: 'reply', text: 'a\u0000b', ['k\udfff']: 1 } },
        { stage: 'effect', payload: { method: 'reply_is_effect' } },
      ],
    };
    const outcomes = await Promise.all([q.step(words), q.step(sealing(other, b))]);
    expect(outcomes).toEqual([{ moved: true }, { moved: true }]);
    const sealedRow = await db
      .selectFrom('call')
      .select(['verdict', 'verdict_reason as reason'])
      .where('id', '=', poisoned)
      .executeTakeFirstOrThrow();
    expect(sealedRow).toEqual({ verdict: 'verified', reason: 'the device said "\uFFFD\uFFFD"' });
    const response = (await chainOf(a)).find((r) => r.call_id === poisoned && r.stage === 'response')!;
    expect(response.payload).toEqual({ outcome: 'reply', text: 'a\uFFFDb', ['k\uFFFD']: 1 });
  });
});
