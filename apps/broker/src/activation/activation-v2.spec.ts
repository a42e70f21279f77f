import { randomBytes } from 'node:crypto';
import { activationHmac, hashClientId, sealEfuseKey, wrappingKeyOf } from '@fleet/protocol';
import { startBrokerFixture, WRAPPING_KEY, type BrokerFixture } from '../../test/broker-fixture';
import {
  activate,
  bootCredentials,
  checkIn,
  checkInHeaders,
  connectLikeDevice,
  newDeviceIdentity,
  systemInfoBody,
  type StockIdentity,
} from '../../test/stock-device';

let serials = 0;

// Activation v2 (xiaozhi §4.3, DESIGN §3): a device with an eFuse serial proves itself with the HMAC of a
// challenge under its eFuse key, which an admin imported.
describe('activation v2', () => {
  let f: BrokerFixture;

  beforeAll(async () => {
    f = await startBrokerFixture();
  });
  afterAll(() => f.close());

  /** A device with an eFuse serial whose key an admin imported (sealed as the admin API seals it). */
  async function provableDevice(): Promise<{ device: StockIdentity; key: Buffer }> {
    const serialNumber = `SN-${process.pid}-${++serials}`;
    const key = randomBytes(32);
    const sealed = sealEfuseKey(wrappingKeyOf(WRAPPING_KEY), serialNumber, key, randomBytes(12));
    await f.sql.query(
      `INSERT INTO device_serial_key (serial_number, sealed_key, wrapping_key_id, imported_by)
       VALUES ($1, $2, $3, gen_random_uuid())`,
      [serialNumber, sealed, wrappingKeyOf(WRAPPING_KEY).id],
    );
    return { device: { ...newDeviceIdentity(), serialNumber }, key };
  }

  async function challengeOf(device: StockIdentity): Promise<string> {
    const { status, body } = await checkIn(f.httpUrl, device);
    expect(status).toBe(200);
    expect(body['mqtt']).toBeUndefined();
    const activation = body['activation'] as Record<string, unknown>;
    expect(activation['code']).toBeUndefined(); // nothing to speak: the device answers by itself
    return String(activation['challenge']);
  }

  const proof = (device: StockIdentity, challenge: string, key: Buffer) => ({
    algorithm: 'hmac-sha256',
    serial_number: device.serialNumber,
    challenge,
    hmac: activationHmac(key, challenge),
  });

  async function outcomes(): Promise<Record<string, number>> {
    const text = await (await fetch(`${f.httpUrl}/metrics`)).text();
    return Object.fromEntries(
      [...text.matchAll(/broker_activations_total\{outcome="(\w+)",service="broker"\} (\d+)/g)].map((m) => [
        m[1]!,
        Number(m[2]),
      ]),
    );
  }

  it('registers a device only once it has answered the challenge under its eFuse key', async () => {
    const { device, key } = await provableDevice();
    const challenge = await challengeOf(device);
    expect(challenge).toMatch(/^[0-9a-f]{32}$/);
    expect((await f.sql.query('SELECT 1 FROM device WHERE id = $1', [device.mac])).rowCount).toBe(0);

    expect(await activate(f.httpUrl, device, proof(device, challenge, key))).toEqual({
      status: 200,
      body: { status: 'activated' },
    });
    const creds = await bootCredentials(f.httpUrl, device);
    const client = await connectLikeDevice(creds);
    await client.endAsync();
    const { rows } = await f.sql.query('SELECT serial_number, client_id FROM device WHERE id = $1', [
      device.mac,
    ]);
    expect(rows[0]).toEqual({ serial_number: device.serialNumber, client_id: hashClientId(device.uuid) });
  });

  it('lets a device whose flash was erased take its MAC back with no operator', async () => {
    const { device, key } = await provableDevice();
    await activate(f.httpUrl, device, proof(device, await challengeOf(device), key));
    const old = await bootCredentials(f.httpUrl, device);

    const erased = { ...device, uuid: crypto.randomUUID() };
    const challenge = await challengeOf(erased); // a challenge, not quarantine
    expect(await activate(f.httpUrl, erased, proof(erased, challenge, key))).toMatchObject({ status: 200 });
    expect((await checkIn(f.httpUrl, erased)).body['mqtt']).toBeDefined();

    const events = await f.sql.query(
      'SELECT field, previous, current, source FROM device_identity_event WHERE device_id = $1',
      [device.mac],
    );
    expect(events.rows).toEqual([
      {
        field: 'client_id',
        previous: hashClientId(device.uuid),
        current: hashClientId(erased.uuid),
        source: 'proof',
      },
    ]);
    const held = await f.sql.query('SELECT 1 FROM device_quarantine WHERE device_id = $1', [device.mac]);
    expect(held.rowCount).toBe(0);
    // What the old identity was given stops working.
    await expect(connectLikeDevice(old)).rejects.toMatchObject({ code: 5 });
  });

  it('gives a wrong HMAC, a used challenge, an expired one and a borrowed one nothing, and counts each', async () => {
    const { device, key } = await provableDevice();
    const before = await outcomes();
    const wrong = await activate(
      f.httpUrl,
      device,
      proof(device, await challengeOf(device), randomBytes(32)),
    );
    expect(wrong).toEqual({ status: 202, body: { status: 'pending' } });

    const used = await challengeOf(device);
    await activate(f.httpUrl, device, { ...proof(device, used, key), hmac: '0'.repeat(64) });
    expect((await activate(f.httpUrl, device, proof(device, used, key))).status).toBe(202);

    const late = await challengeOf(device);
    await f.sql.query(`UPDATE activation_challenge SET expires_at = now() - interval '1 second'`);
    expect((await activate(f.httpUrl, device, proof(device, late, key))).status).toBe(202);

    const borrowed = await challengeOf(device);
    const other = { ...newDeviceIdentity(), serialNumber: device.serialNumber };
    expect((await activate(f.httpUrl, other, proof(other, borrowed, key))).status).toBe(202);

    expect((await checkIn(f.httpUrl, device)).body['mqtt']).toBeUndefined();
    const after = await outcomes();
    const grew = (outcome: string) => (after[outcome] ?? 0) - (before[outcome] ?? 0);
    expect([
      grew('bad_hmac'),
      grew('unknown_challenge'),
      grew('expired_challenge'),
      grew('identity_mismatch'),
    ]).toEqual([2, 1, 1, 1]);
    expect(grew('proved')).toBe(0);
  });

  async function challengeCounts(): Promise<Record<string, number>> {
    const text = await (await fetch(`${f.httpUrl}/metrics`)).text();
    return Object.fromEntries(
      [...text.matchAll(/broker_activation_challenges_total\{outcome="(\w+)",service="broker"\} (\d+)/g)].map(
        (m) => [m[1]!, Number(m[2])],
      ),
    );
  }

  it('lets the real device activate with its HMAC while a stranger keeps checking in for its MAC with another Client-Id', async () => {
    const { device, key } = await provableDevice();
    const before = await challengeCounts();
    const challenge = await challengeOf(device);
    // The stranger knows the MAC and the serial (both printed on the box), not the Client-Id nor the eFuse key.
    const stranger = { ...device, uuid: crypto.randomUUID() };
    const answered = [];
    for (let i = 0; i < 10; i++) answered.push(await checkIn(f.httpUrl, stranger));
    expect(answered.every((a) => a.status === 200 && a.body['mqtt'] === undefined)).toBe(true);

    expect(await activate(f.httpUrl, device, proof(device, challenge, key))).toEqual({
      status: 200,
      body: { status: 'activated' },
    });
    expect((await checkIn(f.httpUrl, device)).body['mqtt']).toBeDefined();
    const after = await challengeCounts();
    const grew = (outcome: string) => (after[outcome] ?? 0) - (before[outcome] ?? 0);
    // The stranger's own challenge was renewed until its address had its share for the minute; the real
    // device's was never touched.
    expect({
      issued: grew('issued'),
      renewed: grew('renewed'),
      limited: grew('rate_limited'),
      displaced: grew('displaced'),
    }).toEqual({ issued: 2, renewed: 4, limited: 5, displaced: 0 });
  });

  it('gives a check-in over its budget a challenge that leads nowhere, and counts it', async () => {
    const { device, key } = await provableDevice();
    const challenges = [];
    for (let i = 0; i < 7; i++) challenges.push(await challengeOf(device));
    const last = challenges[6]!;
    // Six a minute for one MAC from one address: the seventh answer is not stored, so /activate leads nowhere.
    expect((await activate(f.httpUrl, device, proof(device, last, key))).status).toBe(202);
    expect((await activate(f.httpUrl, device, proof(device, challenges[5]!, key))).status).toBe(200);
    const metrics = await (await fetch(`${f.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /broker_ota_check_ins_total\{outcome="proof_rate_limited",service="broker"\} [1-9]/,
    );
  });

  it('gives no check-in another address budget for naming one in X-Forwarded-For', async () => {
    const { device, key } = await provableDevice();
    const challenges = [];
    for (let i = 0; i < 7; i++) {
      const response = await fetch(`${f.httpUrl}/xiaozhi/ota/`, {
        method: 'POST',
        headers: { ...checkInHeaders(device), 'x-forwarded-for': `203.0.113.${i + 1}` },
        body: systemInfoBody(device),
      });
      const body = (await response.json()) as { activation: { challenge: string } };
      challenges.push(body.activation.challenge);
    }
    // All seven came from one socket address: the seventh is over that address's budget for the MAC.
    expect((await activate(f.httpUrl, device, proof(device, challenges[6]!, key))).status).toBe(202);
  });

  it('keeps at most four outstanding challenges per MAC, dropping the oldest, and counts it', async () => {
    const { device, key } = await provableDevice();
    const before = await challengeCounts();
    const claims = Array.from({ length: 5 }, () => ({ ...device, uuid: crypto.randomUUID() }));
    const challenges = [];
    for (const claim of claims) challenges.push(await challengeOf(claim));
    const { rows } = await f.sql.query('SELECT challenge FROM activation_challenge WHERE device_id = $1', [
      device.mac,
    ]);
    expect(rows.map((r) => r.challenge).sort()).toEqual(challenges.slice(1).sort());
    expect((await activate(f.httpUrl, claims[0]!, proof(claims[0]!, challenges[0]!, key))).status).toBe(202);
    expect((await activate(f.httpUrl, claims[4]!, proof(claims[4]!, challenges[4]!, key))).status).toBe(200);
    const after = await challengeCounts();
    expect((after['displaced'] ?? 0) - (before['displaced'] ?? 0)).toBe(1);
  });

  it("does not let another serial's proof take a MAC bound to a serial", async () => {
    const first = await provableDevice();
    await activate(f.httpUrl, first.device, proof(first.device, await challengeOf(first.device), first.key));
    const second = await provableDevice();
    const claim = { ...second.device, mac: first.device.mac };
    const { body } = await checkIn(f.httpUrl, claim);
    expect(body['mqtt']).toBeUndefined();
    expect(body['activation']).toBeUndefined();
    const held = await f.sql.query('SELECT claimed_serial FROM device_quarantine WHERE device_id = $1', [
      first.device.mac,
    ]);
    expect(held.rows).toEqual([{ claimed_serial: second.device.serialNumber }]);
  });
});
