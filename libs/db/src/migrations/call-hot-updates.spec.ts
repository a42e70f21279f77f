import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { callStepsRepository } from '../repositories/calls/call-steps.repository';

// docs/BENCHMARKS.md §11: the moves to `sending` and `sent` change no indexed column of `call` and find room on the
// row's page, so Postgres writes them as heap-only (HOT) updates, with no index entry; the seal does touch them.
describe('the call table', () => {
  let db: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.ownerUrl });
    await client.connect();
    await client.query(
      `INSERT INTO device (id, client_id, updated_at) VALUES ('a0:85:e3:00:03:01', 'h', now())`,
    );
    await client.query(
      `INSERT INTO service_lease (name, token, holder, expires_at) VALUES ('l', 1, 'me', now() + interval '1 hour')`,
    );
  });
  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it('moves a call to sending and then sent as heap-only updates, without a new index entry', async () => {
    const id = randomUUID();
    await client.query(
      `INSERT INTO call (id, device_id, partition, tool, arguments, origin, deadline_at)
       VALUES ($1, 'a0:85:e3:00:03:01', 0, 't', '{}', 'operator', now() + interval '1 hour')`,
      [id],
    );
    const step = { callId: id, deviceId: 'a0:85:e3:00:03:01', lease: 'l' };
    const lease = [{ name: 'l', token: '1' }];
    await client.query('BEGIN');
    const hot = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            `SELECT n_tup_hot_upd AS n FROM pg_stat_xact_user_tables WHERE relname = 'call'`,
          )
        ).rows[0]!.n,
      );
    await callStepsRepository.apply(client, 'me', lease, [{ ...step, to: 'sending', jsonrpcId: 1 }], []);
    await callStepsRepository.apply(client, 'me', lease, [{ ...step, to: 'sent' }], []);
    expect(await hot()).toBe(2);
    await client.query('ROLLBACK');
  });
});
