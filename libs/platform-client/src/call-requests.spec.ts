import { Queue } from 'bullmq';
import { Pool } from 'pg';
import { partitionOf } from '@fleet/domain';
import { createRedis, physicalQueueName, type Redis } from '@fleet/queues';
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

  it("create a queued call in the device's partition and wake that partition's queue", async () => {
    const result = await calls.request({ deviceId: mac, tool: 'self.get_device_status', origin: 'operator' });
    expect(result).toMatchObject({ ok: true, created: true, state: 'queued' });
    const { rows } = await pool.query('SELECT partition, deadline_at > now() AS future FROM call');
    expect(rows).toEqual([{ partition: partitionOf(mac), future: true }]);
    const queue = new Queue(physicalQueueName('calls', partitionOf(mac)), {
      connection: redis,
      prefix: 'test',
    });
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs.map((j) => j.data)).toEqual([{ callId: result.ok ? result.callId : '', deviceId: mac }]);
    await queue.close();
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

  it('refuse a call to a device nobody knows', async () => {
    const result = await calls.request({
      deviceId: 'ff:ff:ff:ff:ff:ff',
      tool: 'self.reboot',
      origin: 'operator',
    });
    expect(result).toMatchObject({ ok: false, error: 'unknown_device' });
  });
});
