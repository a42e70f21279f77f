import { randomUUID } from 'node:crypto';
import { waitFor } from '@fleet/testing';
import { startPlatform, type Platform } from '../../test/platform-fixture';

// The platform-wide cap on campaign dispatches per minute (CAMPAIGN_DISPATCHES_PER_MINUTE), counted over every
// campaign together: two campaigns whose own rollouts would start six devices at once start three between them.
describe('the per-minute campaign dispatch cap', () => {
  let p: Platform;
  let creator: string;

  beforeAll(async () => {
    p = await startPlatform({ CAMPAIGN_TICK_MS: '100', CAMPAIGN_DISPATCHES_PER_MINUTE: '3' });
    creator = await p.operator('Creator');
  });
  afterAll(() => p.close());

  async function campaign(macs: string[]): Promise<string> {
    const id = randomUUID();
    await p.sql.query(
      `INSERT INTO campaign (id, name, created_by, state, selector, action, rollout, abort_rule, device_timeout_s, started_at, updated_at)
       VALUES ($1, 'capped', $2, 'running', $3, $4, '{"batchSize":10,"maxInFlight":10}', '{"failureRate":0.5,"minDevices":10}', 30, now(), now())`,
      [
        id,
        creator,
        JSON.stringify({ deviceIds: macs }),
        JSON.stringify({ kind: 'tool', tool: 'self.screen.set_brightness', arguments: { brightness: 40 } }),
      ],
    );
    for (const mac of macs)
      await p.sql.query(
        `INSERT INTO campaign_target (id, campaign_id, device_id, updated_at) VALUES (gen_random_uuid(), $1, $2, now())`,
        [id, mac],
      );
    return id;
  }

  const calls = async (ids: string[]) =>
    (await p.sql.query('SELECT count(*)::int AS n FROM call WHERE campaign_id = ANY($1)', [ids])).rows[0]
      .n as number;

  it('starts no more devices in a minute than the cap, across campaigns', async () => {
    const devices = await Promise.all(Array.from({ length: 6 }, () => p.device()));
    const ids = [
      await campaign(devices.slice(0, 3).map((d) => d.mac)),
      await campaign(devices.slice(3).map((d) => d.mac)),
    ];
    await waitFor(async () => (await calls(ids)) === 3, { what: 'the first three calls', timeoutMs: 30_000 });
    // Twenty more runner rounds: each would start the other three were it not for the cap.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await calls(ids)).toBe(3);
    const { rows } = await p.sql.query(
      `SELECT count(*)::int AS n FROM campaign_target WHERE campaign_id = ANY($1) AND state = 'pending' AND attempts = 0`,
      [ids],
    );
    expect(rows[0].n).toBe(3);
  }, 60_000);
});
