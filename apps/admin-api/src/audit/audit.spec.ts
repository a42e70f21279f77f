import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { createLogger } from '@fleet/telemetry';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

describe('audit rows of concurrent requests', () => {
  let h: Harness;
  let operator: Person;
  let devices: string[];

  beforeAll(async () => {
    h = await startHarness();
    operator = await h.person('operator');
    devices = await insertDevices(h.pool, 8, { start: 700 });
  });
  afterAll(() => h.stop());

  it('are each committed before their own answer leaves', async () => {
    const seen = await Promise.all(
      devices.map(async (device) => {
        const r = await h.request('POST', `/api/v1/devices/${device}/calls`, {
          key: operator.key,
          body: { tool: 'self.get_device_status' },
        });
        expect(r.status).toBe(202);
        // Read the moment this answer arrived, while the other requests may still be running (the route's
        // target is the device of its path).
        const { rows } = await h.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM audit_event WHERE action = 'call.create' AND target_id = $1`,
          [device],
        );
        return rows[0]!.n;
      }),
    );
    expect(seen).toEqual(devices.map(() => 1));
  });

  const auditRows = (target: string) =>
    h.pool
      .query(
        `SELECT operator_id, api_key_id, action, target_type, target_id, details, ip, user_agent
           FROM audit_event WHERE target_id = $1 ORDER BY id`,
        [target],
      )
      .then((r) => r.rows);

  it("of a call's creation are written by its INSERT: one row, as the request policy records a success", async () => {
    const [device] = await insertDevices(h.pool, 1, { start: 720 });
    const body = { tool: 'self.get_device_status', arguments: { depth: 2, token: 'x' }, reason: 'check' };
    const r = await h.request('POST', `/api/v1/devices/${device}/calls`, { key: operator.key, body });
    expect(r.status).toBe(202);
    const [call] = (await h.pool.query('SELECT api_key_id FROM call WHERE id = $1', [r.body.id])).rows;
    expect(await auditRows(device!)).toEqual([
      {
        operator_id: operator.operatorId,
        api_key_id: call.api_key_id,
        action: 'call.create',
        target_type: 'call',
        target_id: device,
        details: {
          status: 202,
          outcome: 'done',
          params: { id: device },
          body: { ...body, arguments: { depth: 2, token: '[redacted]' } },
        },
        ip: expect.any(String),
        user_agent: expect.any(String),
      },
    ]);
    // Written by the call's own statement: the same transaction.
    const { rows } = await h.pool.query(
      `SELECT a.xmin::text = c.xmin::text AS same FROM audit_event a, call c WHERE a.target_id = $1 AND c.id = $2`,
      [device, r.body.id],
    );
    expect(rows).toEqual([{ same: true }]);
  });

  it('of a call creation refused, or answered from its Idempotency-Key, are still written, once each', async () => {
    const [device] = await insertDevices(h.pool, 1, { start: 721 });
    await h.pool.query(`UPDATE device SET status = 'revoked' WHERE id = $1`, [device]);
    const refused = await h.request('POST', `/api/v1/devices/${device}/calls`, {
      key: operator.key,
      body: { tool: 'self.get_device_status' },
    });
    expect(refused.status).toBe(409);
    const unknown = 'ff:ee:dd:00:07:21';
    expect(
      (
        await h.request('POST', `/api/v1/devices/${unknown}/calls`, {
          key: operator.key,
          body: { tool: 'self.get_device_status' },
        })
      ).status,
    ).toBe(404);
    expect((await auditRows(device!)).map((row) => row.details)).toEqual([
      expect.objectContaining({ status: 409, outcome: 'refused', error: refused.body.code }),
    ]);
    expect((await auditRows(unknown)).map((row) => row.details)).toEqual([
      expect.objectContaining({ status: 404, outcome: 'refused' }),
    ]);

    const [open] = await insertDevices(h.pool, 1, { start: 722 });
    const retry = () =>
      h.request('POST', `/api/v1/devices/${open}/calls`, {
        key: operator.key,
        body: { tool: 'self.get_device_status' },
        headers: { 'idempotency-key': `audit-${open}` },
      });
    const first = await retry();
    const again = await retry();
    expect(again.body).toEqual(first.body);
    expect((await auditRows(open!)).map((row) => row.details)).toEqual([
      expect.objectContaining({ status: 202, outcome: 'done' }),
      expect.objectContaining({ status: 202, outcome: 'done' }),
    ]);
  });
});

describe('the audit service', () => {
  let db: TestDatabase;
  let pool: Pool;
  let operatorId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO operator (id, email, name, role) VALUES (gen_random_uuid(), 'audit@example.com', 'a', 'admin')
       RETURNING id`,
    );
    operatorId = rows[0]!.id;
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('writes the rows recorded together, and a row Postgres refuses fails only its own record (loudly)', async () => {
    const logger = createLogger('audit-test', 'silent');
    const errors = jest.spyOn(logger, 'error');
    const audit = new AuditService(new AuditRepository(pool), logger);
    const actor = (id: string) => ({
      operatorId: id,
      email: 'audit@example.com',
      name: 'a',
      role: 'admin' as const,
      via: 'session' as const,
    });
    const marker = randomUUID();
    await Promise.all(
      // The middle one names an operator that does not exist: its row breaks the foreign key.
      [operatorId, randomUUID(), operatorId].map((id, i) =>
        audit.record(
          actor(id),
          { ip: '127.0.0.1' },
          {
            action: 'test.batch',
            targetType: 'test',
            targetId: `${marker}-${i}`,
          },
        ),
      ),
    );
    const { rows } = await pool.query<{ target_id: string }>(
      `SELECT target_id FROM audit_event WHERE action = 'test.batch' ORDER BY target_id`,
    );
    expect(rows.map((r) => r.target_id)).toEqual([`${marker}-0`, `${marker}-2`]);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![0]).toMatchObject({ audit: { targetId: `${marker}-1` } });
  });
});
