import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createDatabase, type Database } from '../../client/kysely';
import { createPgPool, type Pool } from '../../client/pg-pool';
import { approvalOfCall, openCallApproval, recordPreflight } from '../approvals';
import { gateFactsOf } from '../catalogs/gate-facts.repository';
import {
  callByIdempotencyKey,
  createCall,
  createCalls,
  createCallsBrief,
  loadCall,
} from './call-creation.repository';
import { loadCallsToRun } from './call-loads.repository';
import { callStateRepository as state } from './call-state.repository';

const DEVICE = 'a0:85:e3:f4:49:34';
/** A status read of DEVICE asked for by an operator, as a producer hands it to createCalls. */
const statusRead = (id: string) => ({
  id,
  device_id: DEVICE,
  partition: 0,
  tool: 'self.get_device_status',
  arguments: {},
  origin: 'operator' as const,
  deliveryDeadlineMs: 60_000,
  reply_timeout_ms: 10_000,
});

describe('the calls repository', () => {
  let tdb: TestDatabase;
  let pool: Pool;
  let db: Database;
  let operatorId: string;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    pool = createPgPool(tdb.url, { max: 2 });
    db = createDatabase(pool);
    await pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, 'uuid-1', now())`, [DEVICE]);
    operatorId = (
      await pool.query<{ id: string }>(
        `INSERT INTO operator (id, email, name, role) VALUES (gen_random_uuid(), 'o@localhost', 'O', 'operator') RETURNING id`,
      )
    ).rows[0]!.id;
  });
  afterAll(async () => {
    await pool.end();
    await tdb.drop();
  });

  const newCall = (extra: Partial<Parameters<typeof createCall>[1]> = {}) =>
    createCall(db, {
      ...statusRead(randomUUID()),
      arguments: { a: 1 },
      ...extra,
    });

  it('creates a call and returns it as the pipeline reads it, with nothing on disk yet', async () => {
    const call = (await newCall())!;
    expect(call).toMatchObject({ deviceId: DEVICE, state: 'queued', verdict: null, arguments: { a: 1 } });
    expect(call.written.size).toBe(0);
    expect(call.deadlineAt.getTime()).toBeGreaterThan(Date.now());
    expect(await loadCall(db, call.id)).toMatchObject({ id: call.id, tool: 'self.get_device_status' });
  });

  it('creates nothing a second time for the same idempotency key, and finds the first call by it', async () => {
    const first = (await newCall({ idempotency_key: 'k-1' }))!;
    expect(await newCall({ idempotency_key: 'k-1' })).toBeUndefined();
    expect((await callByIdempotencyKey(db, 'k-1'))?.id).toBe(first.id);
  });

  it('cancels only a call not yet sent', async () => {
    const call = (await newCall())!;
    expect(await state.cancel(db, call.id, operatorId, 'wrong device')).toEqual({ deviceId: DEVICE });
    expect(await loadCall(db, call.id)).toMatchObject({ state: 'finished', cancelledBy: operatorId });
    const sent = (await newCall({ state: 'sent' }))!;
    expect(await state.cancel(db, sent.id, operatorId, 'too late')).toBeUndefined();
    expect(await loadCall(db, sent.id)).toMatchObject({ state: 'sent', cancelledBy: null });
  });

  it("opens a call's approval once, and records pre-flight on it once", async () => {
    const call = (await newCall({ state: 'awaiting_approval' }))!;
    const open = {
      id: call.id,
      deviceId: DEVICE,
      tool: call.tool,
      arguments: call.arguments,
      argumentsHash: 'h',
      operatorId,
      ttlMs: 60_000,
    };
    const { id: approvalId, expiresAt } = await openCallApproval(db, open);
    expect(await openCallApproval(db, open)).toEqual({ id: approvalId, expiresAt });
    const found = { preflight: { rules: [] }, catalogVersionId: randomUUID(), toolHash: 't' };
    expect(await recordPreflight(db, call.id, found)).toBe(approvalId);
    expect(await recordPreflight(db, call.id, found)).toBeUndefined();
    expect(await approvalOfCall(db, call.id)).toMatchObject({
      id: approvalId,
      state: 'pending',
      toolHash: 't',
    });
  });

  it("loads calls to run with their device's policy as it is now, each time the same named statement", async () => {
    const a = (await newCall())!;
    const b = (await newCall())!;
    const first = await loadCallsToRun(pool, [a.id, b.id, randomUUID()]);
    expect([...first.keys()].sort()).toEqual([a.id, b.id].sort());
    expect(first.get(a.id)).toMatchObject({
      call: { id: a.id },
      policy: { boundClientId: 'uuid-1', groups: [] },
    });
    expect(first.get(a.id)!.policy.markings.size).toBe(0);
    // An operator's marking made after the first load shows in the next one: the statement is prepared, the
    // answer is not kept.
    await pool.query(
      `INSERT INTO tool_marking (device_id, tool_name, sensitive, read_only, marked_by) VALUES ($1, 'self.reboot', true, NULL, $2)`,
      [DEVICE, operatorId],
    );
    const client = await pool.connect();
    try {
      for (let i = 0; i < 7; i++) await loadCallsToRun(client, [a.id]); // past pg's switch to a generic plan
      const again = await loadCallsToRun(client, [a.id]);
      expect(again.get(a.id)!.policy.markings.get('self.reboot')).toBe(true);
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'load-calls-to-run'`,
      );
      expect(rows[0]!.n).toBe(1); // parsed once on this connection, bound eight times
    } finally {
      client.release();
    }
  });

  it('writes the audit row a call carries with it, only where the call is created, in the same statement', async () => {
    const key = `audit-${randomUUID()}`;
    const audit = (what: string) => ({
      operatorId,
      apiKeyId: null,
      action: 'call.create',
      targetType: 'call',
      targetId: DEVICE,
      details: { status: 202, outcome: 'done', body: { tool: what, nested: [1, { a: null }] } },
      ip: '203.0.113.9',
      userAgent: 'spec',
    });
    const row = (extra: object) => ({ ...statusRead(randomUUID()), ...extra });
    const audited = (what: string) =>
      pool.query(
        `SELECT operator_id, api_key_id, action, target_type, target_id, details, ip, user_agent
           FROM audit_event WHERE details->'body'->>'tool' = $1`,
        [what],
      );
    const [first, plain] = await createCalls(pool, [
      row({ idempotency_key: key, audit: audit('first') }),
      row({}),
    ]);
    expect(first).toBeDefined();
    expect(plain).toBeDefined();
    expect((await audited('first')).rows).toEqual([
      {
        operator_id: operatorId,
        api_key_id: null,
        action: 'call.create',
        target_type: 'call',
        target_id: DEVICE,
        details: audit('first').details,
        ip: '203.0.113.9',
        user_agent: 'spec',
      },
    ]);
    // The key existed: no call, and no audit row (its producer records the request itself).
    const [again] = await createCallsBrief(pool, [row({ idempotency_key: key, audit: audit('again') })]);
    expect(again).toBeUndefined();
    expect((await audited('again')).rowCount).toBe(0);
    // A row Postgres refuses takes its audit row with it.
    await expect(
      createCalls(pool, [row({ device_id: 'no:such:device', audit: audit('refused') })]),
    ).rejects.toThrow(/foreign key/);
    expect((await audited('refused')).rowCount).toBe(0);
  });

  it("creates calls and reads the gate's facts as named statements on a pool's connection, the same rows as through Kysely", async () => {
    const client = await pool.connect();
    try {
      const row = statusRead;
      const [first] = await createCalls(client, [row(randomUUID())]);
      const [second, third] = await createCalls(client, [row(randomUUID()), row(randomUUID())]);
      expect(first).toMatchObject({ deviceId: DEVICE, state: 'queued' });
      expect(await loadCall(db, second!.id)).toMatchObject({
        id: second!.id,
        deadlineAt: second!.deadlineAt,
      });
      expect(third!.id).not.toBe(second!.id);
      const briefId = randomUUID();
      const brief = await createCallsBrief(client, [
        row(briefId),
        { ...row(randomUUID()), idempotency_key: `brief-${briefId}` },
        { ...row(randomUUID()), idempotency_key: `brief-${briefId}` },
      ]);
      expect(brief).toEqual([
        { id: briefId, state: 'queued' },
        { id: expect.any(String), state: 'queued' },
        undefined,
      ]);
      expect(await loadCall(db, briefId)).toMatchObject({ id: briefId, deviceId: DEVICE });
      const asks = [
        { deviceId: DEVICE, tool: 'self.reboot' },
        { deviceId: 'no:such:device', tool: 'self.reboot' },
      ];
      const facts = await gateFactsOf(client, asks);
      expect(facts).toEqual(await gateFactsOf(db, asks));
      expect(facts[0]).toMatchObject({ deviceStatus: 'active', catalogVersionId: null });
      expect(facts[1]).toBeUndefined();
      const { rows } = await client.query<{ name: string }>(
        `SELECT name FROM pg_prepared_statements
          WHERE name IN ('create-calls', 'create-calls-brief', 'gate-facts') ORDER BY name`,
      );
      expect(rows.map((r) => r.name)).toEqual(['create-calls', 'create-calls-brief', 'gate-facts']);
    } finally {
      client.release();
    }
  });
});
