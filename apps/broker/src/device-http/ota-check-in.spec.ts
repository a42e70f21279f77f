import { createHash } from 'node:crypto';
import { clientIdFingerprint, hashClientId, signMqttPassword, validateOtaResponse } from '@fleet/protocol';
import { startBrokerFixture, SIGNING_KEY, type BrokerFixture } from '../../test/broker-fixture';
import {
  activate,
  bootCredentials,
  checkIn,
  checkInHeaders,
  newDeviceIdentity,
  systemInfoBody,
} from '../../test/stock-device';

async function countsOf(httpUrl: string): Promise<{ quarantined: number; invalid: number }> {
  const text = await (await fetch(`${httpUrl}/metrics`)).text();
  const count = (outcome: string) =>
    Number(
      new RegExp(`broker_ota_check_ins_total\\{outcome="${outcome}",service="broker"\\} (\\d+)`).exec(
        text,
      )?.[1] ?? 0,
    );
  return { quarantined: count('quarantined'), invalid: count('invalid_client_id') };
}

describe('the OTA check-in', () => {
  let f: BrokerFixture;

  beforeAll(async () => {
    f = await startBrokerFixture();
  });
  afterAll(() => f.close());

  it('creates a device on first sight and answers MQTT credentials by the firmware rules', async () => {
    const device = newDeviceIdentity();
    const { status, body } = await checkIn(f.httpUrl, device);
    expect(status).toBe(200);
    expect(validateOtaResponse(body)).toEqual([]);
    const mqtt = body['mqtt'] as Record<string, string | number>;
    const mac_ = device.mac.replace(/:/g, '_');
    expect(mqtt).toEqual({
      endpoint: `127.0.0.1:${f.broker.ports.mqtt}`,
      client_id: `GID_bread-compact-wifi@@@${mac_}@@@${device.uuid}`,
      username: expect.any(String),
      password: signMqttPassword(SIGNING_KEY, String(mqtt['client_id']), String(mqtt['username'])),
      publish_topic: 'device-server',
      subscribe_topic: `devices/p2p/${mac_}`,
      keepalive: 240,
    });
    expect(Object.keys(mqtt).every((key) => key.length <= 15)).toBe(true);
    expect(body['server_time']).toEqual({ timestamp: expect.any(Number), timezone_offset: 0 });
    const { rows } = await f.sql.query(
      'SELECT client_id, status, firmware_version, board, ota_label FROM device WHERE id = $1',
      [device.mac],
    );
    expect(rows).toEqual([
      {
        client_id: hashClientId(device.uuid),
        status: 'active',
        firmware_version: '2.4.2',
        board: 'bread-compact-wifi',
        ota_label: 'ota_0',
      },
    ]);
  });

  it('answers the same with or without the trailing slash and records each boot', async () => {
    const device = newDeviceIdentity();
    expect((await checkIn(f.httpUrl, device, '/xiaozhi/ota/')).status).toBe(200);
    expect((await checkIn(f.httpUrl, device, '/xiaozhi/ota')).status).toBe(200);
    const { rows } = await f.sql.query('SELECT count(*)::int AS n FROM boot_report WHERE device_id = $1', [
      device.mac,
    ]);
    expect(rows[0].n).toBe(2);
  });

  it('answers 400 naming Device-Id when it is missing or not a MAC', async () => {
    const device = newDeviceIdentity();
    for (const deviceId of [undefined, 'not-a-mac']) {
      const headers = checkInHeaders(device);
      if (deviceId === undefined) delete headers['Device-Id'];
      else headers['Device-Id'] = deviceId;
      const response = await fetch(`${f.httpUrl}/xiaozhi/ota/`, {
        method: 'POST',
        headers,
        body: systemInfoBody(device),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.stringContaining('Device-Id') });
    }
  });

  it('still answers 200 to a body that is not JSON, and records what it did not like', async () => {
    const device = newDeviceIdentity();
    const response = await fetch(`${f.httpUrl}/xiaozhi/ota/`, {
      method: 'POST',
      headers: checkInHeaders(device),
      body: '{"version":2, this is not json',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body['mqtt']).toBeDefined();
    const { rows } = await f.sql.query('SELECT complaints FROM boot_report WHERE device_id = $1', [
      device.mac,
    ]);
    expect(JSON.stringify(rows[0].complaints)).toContain('body');
  });

  it('drops a body field holding U+0000 or a lone surrogate, counts it, and still answers 200 with credentials', async () => {
    const device = newDeviceIdentity();
    const sent = JSON.parse(systemInfoBody(device)) as Record<string, Record<string, unknown>>;
    sent['board']!['type'] = 'bread\u0000compact';
    sent['board']!['ssid'] = 'caf\uD83D'; // the first half of an emoji
    sent['ota']!['\u0000label'] = 'ota_1';
    const before = await (await fetch(`${f.httpUrl}/metrics`)).text();
    const counted = (text: string) =>
      Number(/broker_malformed_input_total\{kind="ota_unstorable_text"[^}]*\} (\d+)/.exec(text)?.[1] ?? 0);
    const response = await fetch(`${f.httpUrl}/xiaozhi/ota/`, {
      method: 'POST',
      headers: checkInHeaders(device),
      body: JSON.stringify(sent),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Record<string, unknown>)['mqtt']).toMatchObject({
      client_id: expect.stringContaining(device.uuid),
    });
    const { rows } = await f.sql.query(
      `SELECT d.board, d.firmware_version, b.complaints, b.body
         FROM device d JOIN boot_report b ON b.device_id = d.id WHERE d.id = $1`,
      [device.mac],
    );
    expect(rows[0].board).toBeNull();
    expect(rows[0].firmware_version).toBe('2.4.2');
    expect(rows[0].body.board).not.toHaveProperty('type');
    expect(rows[0].body.board.ssid).toBeUndefined();
    expect(rows[0].body.ota).toEqual({ label: 'ota_0' });
    expect(rows[0].complaints).toEqual(
      expect.arrayContaining(
        ['body board.type', 'body board.ssid', 'body ota.?'].map((field) =>
          expect.objectContaining({ field, problem: expect.stringContaining('dropped') }),
        ),
      ),
    );
    const after = await (await fetch(`${f.httpUrl}/metrics`)).text();
    expect(counted(after) - counted(before)).toBe(3);
  });

  it('quarantines a second Client-Id for a known MAC instead of handing it credentials', async () => {
    const device = newDeviceIdentity();
    await checkIn(f.httpUrl, device);
    const impostor = { ...device, uuid: crypto.randomUUID() };
    const { status, body } = await checkIn(f.httpUrl, impostor);
    expect(status).toBe(200);
    expect(body['mqtt']).toBeUndefined();
    await checkIn(f.httpUrl, impostor); // a retry does not pile up
    const { rows } = await f.sql.query(
      'SELECT claimed_client_id, state FROM device_quarantine WHERE device_id = $1',
      [device.mac],
    );
    expect(rows).toEqual([{ claimed_client_id: hashClientId(impostor.uuid), state: 'pending' }]);
    // The bound device keeps working meanwhile.
    expect((await checkIn(f.httpUrl, device)).body['mqtt']).toBeDefined();
    const bound = await f.sql.query('SELECT client_id FROM device WHERE id = $1', [device.mac]);
    expect(bound.rows[0].client_id).toBe(hashClientId(device.uuid));
  });

  it('gives a forged check-in with a known MAC nothing, whatever value it guessed or found, and counts it', async () => {
    const device = newDeviceIdentity();
    const creds = await bootCredentials(f.httpUrl, device);
    const before = await countsOf(f.httpUrl);
    const guesses = [
      crypto.randomUUID(), // a guess
      clientIdFingerprint(device.uuid), // the fingerprint pages show
      hashClientId(device.uuid), // the stored hash
      creds.client_id, // the whole MQTT client id, as presence once showed it
      device.uuid.repeat(230).slice(0, 8000), // 8,000 characters
    ];
    for (const uuid of guesses) {
      const { status, body } = await checkIn(f.httpUrl, { ...device, uuid, board: 'forged-board' });
      expect(status).toBe(200);
      expect(body['mqtt']).toBeUndefined();
      expect(body['activation']).toBeUndefined();
    }
    const after = await countsOf(f.httpUrl);
    expect(after.quarantined - before.quarantined).toBe(1);
    expect(after.invalid - before.invalid).toBe(4);
    // Nothing of the forgery reached the device row: not its board, not its firmware version.
    const { rows } = await f.sql.query('SELECT board, firmware_version FROM device WHERE id = $1', [
      device.mac,
    ]);
    expect(rows[0]).toEqual({ board: 'bread-compact-wifi', firmware_version: '2.4.2' });
  });

  it('lets a quarantined check-in rewrite neither board nor firmware version', async () => {
    const device = newDeviceIdentity();
    await checkIn(f.httpUrl, device);
    await checkIn(f.httpUrl, { ...device, uuid: crypto.randomUUID(), board: 'esp-box-3', version: '9.9.9' });
    const { rows } = await f.sql.query('SELECT board, firmware_version FROM device WHERE id = $1', [
      device.mac,
    ]);
    expect(rows[0]).toEqual({ board: 'bread-compact-wifi', firmware_version: '2.4.2' });
  });

  it('records a changed board of the bound identity as an event citing its boot report', async () => {
    const device = newDeviceIdentity();
    await checkIn(f.httpUrl, device);
    const { body } = await checkIn(f.httpUrl, { ...device, board: 'esp-box-3' });
    expect((body['mqtt'] as { client_id: string }).client_id).toMatch(/^GID_esp-box-3@@@/);
    const { rows } = await f.sql.query(
      `SELECT e.field, e.previous, e.current, e.source, b.board AS reported
         FROM device_identity_event e JOIN boot_report b ON b.id = e.boot_report_id WHERE e.device_id = $1`,
      [device.mac],
    );
    expect(rows).toEqual([
      {
        field: 'board',
        previous: 'bread-compact-wifi',
        current: 'esp-box-3',
        source: 'check_in',
        reported: 'esp-box-3',
      },
    ]);
  });

  it('keeps the Client-Id out of every row and log line it writes', async () => {
    const device = newDeviceIdentity();
    await checkIn(f.httpUrl, device);
    await checkIn(f.httpUrl, { ...device, uuid: crypto.randomUUID() });
    const { rows } = await f.sql.query(
      `SELECT row_to_json(b)::text AS row FROM boot_report b WHERE device_id = $1
       UNION ALL SELECT row_to_json(q)::text FROM device_quarantine q WHERE device_id = $1
       UNION ALL SELECT row_to_json(d)::text FROM device d WHERE id = $1`,
      [device.mac],
    );
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.map((r: { row: string }) => r.row).join('\n')).not.toContain(device.uuid);
    expect(f.logs.join('\n')).not.toContain(device.uuid);
  });

  it('answers /activate the same for an unknown MAC and a known one, and counts both', async () => {
    const known = newDeviceIdentity();
    await checkIn(f.httpUrl, known);
    const before = await (await fetch(`${f.httpUrl}/metrics`)).text();
    const unknown = await activate(f.httpUrl, newDeviceIdentity());
    const wrongClientId = await activate(f.httpUrl, { ...known, uuid: crypto.randomUUID() });
    expect(unknown).toEqual({ status: 202, body: { status: 'pending' } });
    expect(wrongClientId).toEqual(unknown);
    expect(await activate(f.httpUrl, known)).toEqual({ status: 200, body: { status: 'activated' } });
    const unproven = (text: string) =>
      Number(/broker_activations_total\{outcome="unproven",service="broker"\} (\d+)/.exec(text)?.[1] ?? 0);
    expect(unproven(await (await fetch(`${f.httpUrl}/metrics`)).text()) - unproven(before)).toBe(2);
  });

  it('gives a revoked device no credentials', async () => {
    const device = newDeviceIdentity();
    await checkIn(f.httpUrl, device);
    await f.sql.query(`UPDATE device SET status = 'revoked' WHERE id = $1`, [device.mac]);
    const { status, body } = await checkIn(f.httpUrl, device);
    expect(status).toBe(200);
    expect(body['mqtt']).toBeUndefined();
  });

  it('offers assigned firmware as dotted integers with a URL that serves the image with its length', async () => {
    const device = newDeviceIdentity();
    await checkIn(f.httpUrl, device);
    const image = Buffer.from('not really an ESP image, but bytes with a hash');
    const sha256 = createHash('sha256').update(image).digest('hex');
    await f.sql.query('INSERT INTO firmware_image (sha256, size, data) VALUES ($1, $2, $3)', [
      sha256,
      image.length,
      image,
    ]);
    const { rows } = await f.sql.query(
      `INSERT INTO firmware (id, version, project_name, chip, sha256, size, boards, uploaded_by)
       VALUES (gen_random_uuid(), '2.4.3', 'xiaozhi', 'esp32s3', $1, $2, '{bread-compact-wifi}', gen_random_uuid()) RETURNING id`,
      [sha256, image.length],
    );
    await f.sql.query('INSERT INTO firmware_assignment (device_id, firmware_id) VALUES ($1, $2)', [
      device.mac,
      rows[0].id,
    ]);

    const { body } = await checkIn(f.httpUrl, device);
    expect(body['firmware']).toEqual({
      version: '2.4.3',
      url: `${f.httpUrl}/firmware/${sha256}.bin`,
      force: 0,
    });
    const download = await fetch(`${f.httpUrl}/firmware/${sha256}.bin`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-length')).toBe(String(image.length));
    expect(download.headers.get('transfer-encoding')).toBeNull();
    expect(Buffer.from(await download.arrayBuffer())).toEqual(image);

    // Running the assigned version already: nothing to offer.
    expect((await checkIn(f.httpUrl, { ...device, version: '2.4.3' })).body['firmware']).toBeUndefined();
    expect((await fetch(`${f.httpUrl}/firmware/${'0'.repeat(64)}.bin`)).status).toBe(404);
  });
});

describe('the OTA check-in with registration closed', () => {
  let f: BrokerFixture;

  beforeAll(async () => {
    f = await startBrokerFixture({ REGISTRATION_OPEN: 'false' });
  });
  afterAll(() => f.close());

  it('answers an activation code with its challenge and keeps /activate at 202 until an operator binds it', async () => {
    const device = newDeviceIdentity();
    const first = await checkIn(f.httpUrl, device);
    expect(first.status).toBe(200);
    expect(first.body['mqtt']).toBeUndefined();
    const activation = first.body['activation'] as Record<string, string>;
    expect(activation['code']).toMatch(/^\d{6}$/);
    expect(activation['challenge']).toEqual(expect.any(String));
    expect(activation['message']).toContain(activation['code']);

    const activate = () =>
      fetch(`${f.httpUrl}/xiaozhi/ota/activate`, {
        method: 'POST',
        headers: checkInHeaders(device),
        body: '{}',
      });
    expect((await activate()).status).toBe(202);
    await f.sql.query(`UPDATE device SET status = 'active' WHERE id = $1`, [device.mac]); // what "bind" does
    expect((await activate()).status).toBe(200);
    const after = await checkIn(f.httpUrl, device);
    expect(after.body['activation']).toBeUndefined();
    expect(after.body['mqtt']).toBeDefined();
  });
});
