import { randomUUID } from 'node:crypto';
import type { SimDevice } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import { startPlatform, type Platform } from '../../test/platform-fixture';

describe('the campaign runner', () => {
  let p: Platform;
  let creator: string;

  beforeAll(async () => {
    p = await startPlatform({ CAMPAIGN_TICK_MS: '100' });
    creator = await p.operator('Creator');
  });
  afterAll(() => p.close());

  async function campaign(
    devices: SimDevice[],
    spec: { action: unknown; rollout?: unknown; abortRule?: unknown; deviceTimeoutS?: number },
  ): Promise<string> {
    const id = randomUUID();
    await p.sql.query(
      `INSERT INTO campaign (id, name, created_by, state, selector, action, rollout, abort_rule, device_timeout_s, started_at, updated_at)
       VALUES ($1, 'test campaign', $2, 'running', $3, $4, $5, $6, $7, now(), now())`,
      [
        id,
        creator,
        JSON.stringify({ deviceIds: devices.map((d) => d.mac) }),
        JSON.stringify(spec.action),
        JSON.stringify(spec.rollout ?? { batchSize: 2, maxInFlight: 2 }),
        JSON.stringify(spec.abortRule ?? { failureRate: 0.5, minDevices: 2 }),
        spec.deviceTimeoutS ?? 30,
      ],
    );
    for (const d of devices) {
      await p.sql.query(
        `INSERT INTO campaign_target (id, campaign_id, device_id, updated_at) VALUES (gen_random_uuid(), $1, $2, now())`,
        [id, d.mac],
      );
    }
    return id;
  }

  const stateOf = async (id: string) =>
    (await p.sql.query('SELECT state, state_reason FROM campaign WHERE id = $1', [id])).rows[0] as {
      state: string;
      state_reason: string;
    };
  const targets = async (id: string) =>
    (
      await p.sql.query(
        'SELECT device_id, state, attempts FROM campaign_target WHERE campaign_id = $1 ORDER BY device_id',
        [id],
      )
    ).rows as { device_id: string; state: string; attempts: number }[];

  it('rolls a tool out in waves, each device verified once, and completes', async () => {
    const devices = await Promise.all(Array.from({ length: 5 }, () => p.device()));
    const id = await campaign(devices, {
      action: { kind: 'tool', tool: 'self.screen.set_brightness', arguments: { brightness: 30 } },
    });
    await waitFor(async () => (await stateOf(id)).state === 'completed', {
      what: 'the campaign to complete',
      timeoutMs: 30_000,
    });
    expect((await targets(id)).map((t) => [t.state, t.attempts])).toEqual(devices.map(() => ['verified', 1]));
    for (const d of devices) expect(d.savedBrightness).toBe(30);
    const { rows } = await p.sql.query(
      `SELECT count(*)::int AS n, count(DISTINCT device_id)::int AS devices FROM call WHERE campaign_id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ n: 5, devices: 5 });
  });

  it('leaves an offline device waiting, not failed, and aborts when too many fail', async () => {
    const liars = await Promise.all(Array.from({ length: 3 }, () => p.device({ faults: { lie: true } })));
    const offline = await p.device();
    await offline.stop();
    await waitFor(
      async () =>
        (await p.sql.query('SELECT online FROM device WHERE id = $1', [offline.mac])).rows[0].online ===
        false,
    );
    const id = await campaign([...liars, offline], {
      action: { kind: 'tool', tool: 'self.screen.set_brightness', arguments: { brightness: 10 } },
      rollout: { batchSize: 4, maxInFlight: 4 },
      abortRule: { failureRate: 0.5, minDevices: 2 },
    });
    await waitFor(async () => (await stateOf(id)).state === 'aborted', {
      what: 'the campaign to abort',
      timeoutMs: 30_000,
    });
    expect((await stateOf(id)).state_reason).toContain('failed');
    const byDevice = new Map((await targets(id)).map((t) => [t.device_id, t.state]));
    expect(byDevice.get(offline.mac)).toBe('cancelled'); // it waited (not a failure) until the abort cancelled it
    expect(liars.filter((d) => byDevice.get(d.mac) === 'failed').length).toBeGreaterThanOrEqual(2);
  });
});
