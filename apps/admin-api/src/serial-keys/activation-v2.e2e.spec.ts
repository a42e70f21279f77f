import { randomBytes } from 'node:crypto';
import { createDevice, efuseCsv, efuseFor, FAST_TIMINGS, type SimDevice } from '@fleet/device-sim';
import { hashClientId } from '@fleet/protocol';
import { waitFor } from '@fleet/testing';
import { startPlatform, type Platform } from '../../test/platform';

const SEED = 'activation-v2-e2e';
const PROVING = '02:3e:01:00:00:01';
const WRONG_KEY = '02:3e:01:00:00:02';

// DESIGN §3, activation v2 end to end: an admin imports the eFuse keys through the API; a simulated device with
// an eFuse serial proves itself at first sight, and again after its NVS was erased (a new Client-Id), taking its
// MAC back with no operator; a device answering under another key gets nothing. Each refusal is on /metrics.
describe('activation v2 through the API and the broker', () => {
  let p: Platform;
  const devices: SimDevice[] = [];

  beforeAll(async () => {
    p = await startPlatform();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await p?.close();
  });

  const device = (mac: string, efuse = efuseFor(mac, SEED)) => {
    const d = createDevice({
      otaUrl: `${p.brokerUrl}/xiaozhi/ota/`,
      mac,
      efuse,
      timings: FAST_TIMINGS,
      relayTools: 0,
    });
    devices.push(d);
    return d;
  };
  const uuidOf = (d: SimDevice) => d.clientId.split('@@@')[2]!;
  const activations = async (outcome: string) =>
    Number(
      new RegExp(`broker_activations_total\\{outcome="${outcome}",service="broker"\\} (\\d+)`).exec(
        await (await fetch(`${p.brokerUrl}/metrics`)).text(),
      )?.[1] ?? 0,
    );

  it('lets a device with an imported key in by its proof, take its MAC back after an erase, and refuses a wrong key', async () => {
    const admin = await p.h.person('admin');
    const imported = await p.h.request('POST', '/api/v1/serial-keys', {
      key: admin.key,
      raw: Buffer.from(efuseCsv([efuseFor(PROVING, SEED), efuseFor(WRONG_KEY, SEED)])),
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.body).toEqual({ imported: 2, replaced: 0 });

    const proving = device(PROVING);
    proving.start();
    await proving.waitUntilConnected(15_000);
    const first = uuidOf(proving);
    const row = async () =>
      (await p.h.owner.query('SELECT client_id, serial_number FROM device WHERE id = $1', [PROVING])).rows[0];
    expect(await row()).toEqual({
      client_id: hashClientId(first),
      serial_number: efuseFor(PROVING, SEED).serialNumber,
    });

    proving.eraseNvs();
    await proving.next('connected', { timeoutMs: 15_000 });
    expect(uuidOf(proving)).not.toBe(first);
    expect((await row()).client_id).toBe(hashClientId(uuidOf(proving)));
    const page = await p.h.request('GET', `/api/v1/devices/${PROVING}`, { key: admin.key });
    expect(page.body.identityChanges).toEqual([
      expect.objectContaining({
        field: 'client_id',
        source: 'proof',
        current: hashClientId(uuidOf(proving)).slice(0, 8),
      }),
    ]);
    expect(page.body.quarantine).toEqual([]);
    expect(await activations('proved')).toBe(2);

    const impostor = device(WRONG_KEY, {
      serialNumber: efuseFor(WRONG_KEY, SEED).serialNumber,
      hmacKey: randomBytes(32),
    });
    impostor.start();
    await waitFor(async () => (await activations('bad_hmac')) >= 1, { what: 'the wrong HMAC counted' });
    expect(impostor.connected).toBe(false);
    expect(impostor.mqttConnectCount).toBe(0);
    const none = await p.h.owner.query('SELECT 1 FROM device WHERE id = $1', [WRONG_KEY]);
    expect(none.rowCount).toBe(0);
  });
});
