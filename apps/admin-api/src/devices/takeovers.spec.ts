import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';

// DESIGN §3, one live connection per device: a newer connection of a device takes over from the older one. Done
// again and again, that is two parties holding one identity (a cloned Client-Id, a same-board impostor whose
// check-in changes nothing about what the device is): the device page shows it and the fleet's alert counts it.
describe('takeovers of a device', () => {
  let h: Harness;
  let viewer: Person;

  beforeAll(async () => {
    h = await startHarness();
    viewer = await h.person('viewer');
  });
  afterAll(() => h.stop());

  /**
   * Connection rows as the broker writes them when two parties take a device from each other every
   * `everyMinutes`: each connection opens, and is closed as `takeover` when the next one of the device opens.
   */
  async function fight(
    deviceId: string,
    takeovers: number,
    everyMinutes: number,
    addresses: [string, string],
    clientIdHash: string,
  ) {
    await h.pool.query(
      `INSERT INTO connection (id, device_id, client_id, broker_id, remote_address, keepalive, opened_at, online_at,
                               closed_at, close_reason)
       SELECT $1 || '-' || n, $1, $2, 'broker-a', ($3::text[])[1 + n % 2], 240,
              now() - (n + 1) * $4 * interval '1 minute' - interval '1 second',
              now() - (n + 1) * $4 * interval '1 minute',
              CASE WHEN n > 0 THEN now() - n * $4 * interval '1 minute' END,
              CASE WHEN n > 0 THEN 'takeover' END
         FROM generate_series(0, $5) n`,
      [deviceId, clientIdHash, addresses, everyMinutes, takeovers],
    );
  }

  const takenOverOften = async () => {
    const metrics = await h.request('GET', '/metrics');
    return Number(/^admin_api_devices_taken_over_often(?:\{[^}]*\})? (\d+)$/m.exec(metrics.text)![1]);
  };

  it('shows the last day’s takeovers with where each side came from, and counts the devices taken over often', async () => {
    const [fought, flaky, quiet] = await insertDevices(h.pool, 3, { start: 700 });
    const stolen = 'ab'.repeat(32); // the impostor holds the real device's Client-Id: the same hash on both sides
    // Ten takeovers seven minutes apart (eight in the last hour), from two addresses in turn.
    await fight(fought!, 10, 7, ['203.0.113.9', '10.0.0.7'], stolen);
    // A flaky network: two takeovers in the hour, from one address.
    await fight(flaky!, 2, 20, ['10.0.0.8', '10.0.0.8'], 'cd'.repeat(32));
    expect(await takenOverOften()).toBe(1);

    const r = await h.request('GET', `/api/v1/devices/${fought}`, { key: viewer.key });
    expect(r.status).toBe(200);
    expect(r.body.takeovers).toMatchObject({ lastHour: 8, lastDay: 10 });
    expect(r.body.takeovers.recent).toHaveLength(10);
    // The newest: connection 1 (from 10.0.0.7) taken over by connection 0 (from 203.0.113.9), the same Client-Id.
    expect(r.body.takeovers.recent[0]).toEqual({
      at: expect.any(String),
      displacedAddress: '10.0.0.7',
      displacedClientIdFingerprint: 'abababab',
      byAddress: '203.0.113.9',
      byClientIdFingerprint: 'abababab',
    });
    const times = r.body.takeovers.recent.map((t: { at: string }) => Date.parse(t.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(r.text).not.toContain(stolen);

    const calm = await h.request('GET', `/api/v1/devices/${quiet}`, { key: viewer.key });
    expect(calm.body.takeovers).toEqual({ lastHour: 0, lastDay: 0, recent: [] });
  });
});
