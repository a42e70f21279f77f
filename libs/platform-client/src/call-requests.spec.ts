import { Pool } from 'pg';
import { partitionOf } from '@fleet/domain';
import { callWakeStream, createRedis, readCallWake, type Redis } from '@fleet/queues';
import { createTestDatabase, startTestRedis, type TestDatabase, type TestRedis } from '@fleet/testing';
import { CallRequests } from './call-requests';

describe('call requests', () => {
  let db: TestDatabase;
  let testRedis: TestRedis;
  let pool: Pool;
  let redis: Redis;
  let calls: CallRequests;
  const mac = 'a0:85:e3:00:00:01';

  beforeAll(async () => {
    [db, testRedis] = await Promise.all([createTestDatabase(), startTestRedis()]);
    pool = new Pool({ connectionString: db.url });
    redis = createRedis(testRedis.url);
    calls = new CallRequests(pool, redis, 'test');
    await pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, 'uuid', now())`, [mac]);
  });
  afterAll(async () => {
    await calls.close();
    redis.disconnect();
    await pool.end();
    await Promise.all([db.drop(), testRedis.stop()]);
  });

  it("create a queued call in the device's partition and wake that partition's owner", async () => {
    const result = await calls.request({ deviceId: mac, tool: 'self.get_device_status', origin: 'operator' });
    expect(result).toMatchObject({ ok: true, created: true, state: 'queued' });
    const { rows } = await pool.query('SELECT partition, deadline_at > now() AS future FROM call');
    expect(rows).toEqual([{ partition: partitionOf(mac), future: true }]);
    const entries = await redis.xrangeBuffer(callWakeStream('test', partitionOf(mac)), '-', '+');
    expect(entries.map(([, fields]) => readCallWake(fields))).toEqual([
      { kind: 'call', callId: result.ok ? result.callId : '', deviceId: mac },
    ]);
  });

  it('return the first call when a request is retried with the same idempotency key', async () => {
    const request = {
      deviceId: mac,
      tool: 'self.reboot',
      origin: 'operator' as const,
      idempotencyKey: 'op1:retry-1',
    };
    const first = await calls.request(request);
    const again = await calls.request(request);
    expect(again).toEqual({ ...first, created: false });
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM call WHERE idempotency_key = 'op1:retry-1'`,
    );
    expect(rows[0].n).toBe(1);
    const other = await calls.request({ ...request, tool: 'self.get_device_status' });
    expect(other).toMatchObject({ ok: false, error: 'idempotency_conflict' });
  });

  it("hold an operator's user-only call for pre-flight without opening any approval, with the TTL asked for", async () => {
    const gated = 'a0:85:e3:00:00:02';
    const operator = '00000000-0000-4000-8000-0000000000aa';
    await pool.query(`INSERT INTO device (id, client_id, updated_at) VALUES ($1, 'uuid', now())`, [gated]);
    await pool.query(
      `INSERT INTO operator (id, email, name, role) VALUES ($1, 'op@example.com', 'Op', 'operator')`,
      [operator],
    );
    const catalog = await pool.query(
      `INSERT INTO tool_catalog (id, hash, tool_count) VALUES (gen_random_uuid(), 'h1', 1) RETURNING id`,
    );
    await pool.query(
      `INSERT INTO tool (catalog_id, position, name, description, input_schema, user_only) VALUES ($1, 0, 'self.reboot', 'Reboot', '{}', true)`,
      [catalog.rows[0].id],
    );
    const version = await pool.query(
      `INSERT INTO device_catalog_version (id, device_id, version, catalog_id, exchanges) VALUES (gen_random_uuid(), $1, 1, $2, '[]') RETURNING id`,
      [gated, catalog.rows[0].id],
    );
    await pool.query('UPDATE device SET catalog_version_id = $2 WHERE id = $1', [gated, version.rows[0].id]);

    const byOperator = await calls.request({
      deviceId: gated,
      tool: 'self.reboot',
      origin: 'operator',
      operatorId: operator,
      approvalTtlMs: 120_000,
    });
    expect(byOperator).toMatchObject({ ok: true, state: 'awaiting_approval' });
    expect(byOperator.ok && byOperator.approvalId).toBeFalsy();
    const callId = byOperator.ok ? byOperator.callId : '';
    // DESIGN §4: the orchestrator opens the approval once pre-flight has passed the call; none exists before.
    expect((await pool.query('SELECT id FROM approval WHERE call_id = $1', [callId])).rows).toEqual([]);
    const row = await pool.query('SELECT approval_ttl_ms FROM call WHERE id = $1', [callId]);
    expect(row.rows).toEqual([{ approval_ttl_ms: 120_000 }]);

    const byLlm = await calls.request({ deviceId: gated, tool: 'self.reboot', origin: 'llm' });
    expect(byLlm).toMatchObject({ ok: true, state: 'queued' });
    expect(byLlm.ok && byLlm.approvalId).toBeFalsy();
  });

  it('refuse a call to a device nobody knows', async () => {
    const result = await calls.request({
      deviceId: 'ff:ff:ff:ff:ff:ff',
      tool: 'self.reboot',
      origin: 'operator',
    });
    expect(result).toMatchObject({ ok: false, error: 'unknown_device' });
  });

  it('refuse, when asked, a call to a device in a refused status or unknown, writing nothing', async () => {
    const revoked = 'a0:85:e3:00:00:77';
    await pool.query(
      `INSERT INTO device (id, client_id, status, updated_at) VALUES ($1, 'revoked-uuid', 'revoked', now())`,
      [revoked],
    );
    const options = { refuseDeviceStatuses: ['revoked', 'decommissioned'] as const };
    const ask = (deviceId: string) =>
      calls.request({ deviceId, tool: 'self.get_device_status', origin: 'agent' }, options);
    expect(await ask(revoked)).toMatchObject({
      ok: false,
      error: 'device_unavailable',
      deviceStatus: 'revoked',
    });
    expect(await ask('ff:ff:ff:ff:ff:fe')).toMatchObject({ ok: false, error: 'unknown_device' });
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM call WHERE device_id = $1', [revoked]);
    expect(rows[0].n).toBe(0);
    // Without the option the producer writes the call as before (the orchestrator decides).
    expect(
      await calls.request({ deviceId: revoked, tool: 'self.get_device_status', origin: 'agent' }),
    ).toMatchObject({ ok: true, created: true });
  });

  it('create the calls asked for together, refusing only the one whose device nobody knows', async () => {
    const asked = await Promise.all(
      [mac, 'ff:ff:ff:ff:ff:fe', mac].map((deviceId) =>
        calls.request({ deviceId, tool: 'self.get_device_status', origin: 'llm' }),
      ),
    );
    expect(asked.map((r) => (r.ok ? r.state : r.error))).toEqual(['queued', 'unknown_device', 'queued']);
    const ids = asked.flatMap((r) => (r.ok ? [r.callId] : []));
    const { rows } = await pool.query('SELECT id FROM call WHERE id = ANY($1::uuid[])', [ids]);
    expect(rows).toHaveLength(2);
  });

  it('fail only the requests Postgres cannot take, not the others that shared their gate read and their INSERT', async () => {
    const operatorId = '00000000-0000-4000-8000-0000000000bb';
    await pool.query(
      `INSERT INTO operator (id, email, name, role) VALUES ($1, 'batch@example.com', 'B', 'operator')`,
      [operatorId],
    );
    const ordinary = {
      deviceId: mac,
      tool: 'self.get_device_status',
      origin: 'operator' as const,
      operatorId,
    };
    // Each fails its own statement: a NUL in the gate read's text, in the INSERT's text and jsonb, and a lone
    // surrogate, which jsonb refuses as an escape.
    const poisoned = [
      { ...ordinary, tool: 'self.get\u0000status' },
      { ...ordinary, reason: 'why\u0000' },
      { ...ordinary, arguments: { nested: { name: 'a\u0000b' } } },
      { ...ordinary, arguments: { 'k\u0000': 1 } },
      { ...ordinary, arguments: { text: 'half \ud800 a pair' } },
    ];
    const before = await pool.query('SELECT count(*)::int AS n FROM call');
    const asked = [
      ...Array.from({ length: 10 }, () => ordinary),
      ...poisoned,
      ...Array.from({ length: 10 }, () => ordinary),
    ];
    // One turn: the gate reads go out as one statement, and the rows as one INSERT.
    const results = await Promise.allSettled(asked.map((r) => calls.request(r)));
    const fulfilled = results.map((r) => r.status === 'fulfilled' && r.value.ok);
    expect(fulfilled).toEqual([...Array(10).fill(true), ...Array(5).fill(false), ...Array(10).fill(true)]);
    expect(results.slice(10, 15).map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    const after = await pool.query('SELECT count(*)::int AS n FROM call');
    expect(after.rows[0].n - before.rows[0].n).toBe(20);
  });
});
