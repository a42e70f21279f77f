import { readActivationRequest, readOtaCheckIn, verifyActivationHmac } from '@fleet/protocol';
import { waitFor } from '@fleet/testing';
import {
  appImageDefaults,
  efuseCsv,
  efuseFor,
  FAST_TIMINGS,
  otaCredentials,
  uuidFor,
  type SimDevice,
} from '../src';
import { pingReply, pingRequest, replyWithId, SIGNING_KEY, startHarness, type Harness } from './harness';

const MAC = 'a0:85:e3:f4:49:34';

function expectedSystemInfo(uuid: string, version = '2.4.2', label = 'ota_0'): string {
  const sha = appImageDefaults({ version }).elfSha256;
  return (
    `{"version":2,"language":"zh-CN","flash_size":16777216,"minimum_free_heap_size":"8318340",` +
    `"mac_address":"${MAC}","uuid":"${uuid}","chip_model_name":"esp32s3",` +
    `"chip_info":{"model":9,"cores":2,"revision":2,"features":18},` +
    `"application":{"name":"xiaozhi","version":"${version}","compile_time":"Aug  8 2026T08:33:45Z",` +
    `"idf_version":"v5.5.2","elf_sha256":"${sha}"},` +
    `"partition_table": [{"label":"nvs","type":1,"subtype":2,"address":36864,"size":16384},` +
    `{"label":"otadata","type":1,"subtype":0,"address":53248,"size":8192},` +
    `{"label":"phy_init","type":1,"subtype":1,"address":61440,"size":4096},` +
    `{"label":"ota_0","type":0,"subtype":16,"address":131072,"size":4128768},` +
    `{"label":"ota_1","type":0,"subtype":17,"address":4259840,"size":4128768},` +
    `{"label":"assets","type":1,"subtype":130,"address":8388608,"size":8388608}],` +
    `"ota":{"label":"${label}"},"display":{"monochrome":false,"width":240,"height":240},` +
    `"board":{"type":"bread-compact-wifi","name":"bread-compact-wifi","manufacturer":"","ssid":"MyWiFi",` +
    `"rssi":-52,"channel":6,"ip":"192.168.1.23","mac":"${MAC}"}}`
  );
}

describe('a simulated device at boot', () => {
  let h: Harness;
  let device: SimDevice;

  beforeAll(async () => {
    h = await startHarness();
    device = h.device({ mac: MAC });
    device.start();
    await h.waitOnline(device);
  });

  afterAll(() => h.close());

  it('POSTs its system info to the OTA URL with the firmware headers, in the firmware order', () => {
    const [checkIn] = h.ota.checkIns;
    expect(checkIn?.method).toBe('POST');
    const names = checkIn!.rawHeaders.filter((_, i) => i % 2 === 0);
    expect(names.slice(0, 7)).toEqual([
      'Activation-Version',
      'Device-Id',
      'Client-Id',
      'User-Agent',
      'Accept-Language',
      'Content-Type',
      'Content-Length',
    ]);
    expect(checkIn!.headers).toMatchObject({
      'activation-version': '1',
      'device-id': MAC,
      'client-id': uuidFor(MAC),
      'user-agent': 'bread-compact-wifi/2.4.2',
      'accept-language': 'zh-CN',
      'content-type': 'application/json',
    });
  });

  it('sends the body byte for byte as the firmware builds it, quirks included', () => {
    const body = h.ota.checkIns[0]!.body;
    expect(body).toBe(expectedSystemInfo(uuidFor(MAC)));
    expect(body).toContain('"minimum_free_heap_size":"8318340"');
    expect(body).toContain('"partition_table": [');
    const read = readOtaCheckIn({ headers: h.ota.checkIns[0]!.headers, body });
    expect(read).toMatchObject({ mac: MAC, firmwareVersion: '2.4.2', otaLabel: 'ota_0', complaints: [] });
  });

  it('connects with the credentials from the answer, clean session, as the gateway convention signs them', () => {
    const expected = otaCredentials({
      mac: MAC,
      uuid: uuidFor(MAC),
      boardType: 'bread-compact-wifi',
      signingKey: SIGNING_KEY,
    });
    expect(device.clientId).toBe(expected.clientId);
    const client = h.brokerClient(expected.clientId);
    expect(client?.clean).toBe(true);
  });

  it('subscribes to nothing: the only subscription is the one the broker made for it', () => {
    expect(h.subscribes.get(device.clientId)).toEqual([[`devices/p2p/a0_85_e3_f4_49_34`]]);
  });

  it('publishes nothing on connect, then only to device-server', async () => {
    expect(h.uplinksOf(device)).toEqual([]);
    await h.sendMcp(device, pingRequest(7));
    await waitFor(() => replyWithId(h.mcpPayloads(device), 7));
    expect(h.inbox).toContain(`{"session_id":"","type":"mcp","payload":${pingReply(7)}}`);
    expect(new Set(h.uplinksOf(device).map((u) => u.topic))).toEqual(new Set(['device-server']));
  });

  it('handles a PUBLISH whatever its topic', async () => {
    // Deliver straight to the device's connection on a topic it never asked for.
    const client = h.brokerClient(device.clientId)!;
    client.publish(
      {
        cmd: 'publish',
        topic: 'anything/at/all',
        payload: Buffer.from(`{"type":"mcp","payload":${pingRequest(8)}}`),
        qos: 0,
        retain: false,
        dup: false,
      },
      () => undefined,
    );
    await waitFor(() => replyWithId(h.mcpPayloads(device), 8), {
      what: 'a reply to a message on another topic',
    });
  });
});

describe('a simulated device whose OTA check-in fails', () => {
  let h: Harness;

  afterEach(() => h.close());

  it('retries after 10, 20, 40 … (scaled) and connects once an answer comes', async () => {
    let calls = 0;
    h = await startHarness({ answer: () => (++calls <= 3 ? { status: 500, body: '{}' } : undefined) });
    const device = h.device({ timings: { ...FAST_TIMINGS, otaRetryBaseMs: 40 } });
    device.start();
    await h.waitOnline(device);
    const at = h.ota.checkIns.map((c) => c.at);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps).toHaveLength(3);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(40 * 2 ** i - 5));
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
    expect(device.stats).toMatchObject({ otaCheckIns: 4, otaFailures: 3, bootCount: 1 });
  });

  it('counts an unparsable answer as a failure', async () => {
    let calls = 0;
    h = await startHarness({ answer: () => (++calls === 1 ? { body: '{"mqtt":' } : undefined) });
    const device = h.device();
    device.start();
    await h.waitOnline(device);
    expect(device.stats).toMatchObject({ otaCheckIns: 2, otaFailures: 1 });
  });

  it('runs activation: /activate until 200 (202 = retry after 3 s scaled), then checks again', async () => {
    let calls = 0;
    let activations = 0;
    h = await startHarness({
      answer: () =>
        ++calls === 1
          ? { activation: { code: '123456', message: 'xiaozhi.me\n123456', challenge: MAC } }
          : undefined,
      activate: () => (++activations < 3 ? 202 : 200),
    });
    const device = h.device({ mac: MAC, timings: { ...FAST_TIMINGS, activationPendingMs: 30 } });
    device.start();
    await h.waitOnline(device);
    expect(h.ota.activations).toHaveLength(3);
    expect(h.ota.activations[0]).toMatchObject({ path: '/xiaozhi/ota/activate', body: '{}' });
    expect(h.ota.activations[0]!.headers['device-id']).toBe(MAC);
    expect(h.ota.activations[1]!.at - h.ota.activations[0]!.at).toBeGreaterThanOrEqual(25);
    expect(h.ota.checkIns).toHaveLength(2);
  });

  it('with an eFuse serial, checks in as Activation-Version 2 and answers the challenge with its HMAC, also after an erased NVS', async () => {
    const efuse = efuseFor(MAC, 'test-seed');
    const challenge = '0123456789abcdef0123456789abcdef';
    let calls = 0;
    h = await startHarness({
      answer: () => (++calls % 2 === 1 ? { activation: { message: 'Verifying', challenge } } : undefined),
    });
    const device = h.device({ mac: MAC, efuse, timings: { ...FAST_TIMINGS, activationPendingMs: 30 } });
    device.start();
    await h.waitOnline(device);
    const [checkIn] = h.ota.checkIns;
    expect(checkIn!.headers).toMatchObject({
      'activation-version': '2',
      'serial-number': efuse.serialNumber,
    });
    const proof = readActivationRequest(Buffer.from(h.ota.activations[0]!.body));
    expect(proof).toMatchObject({
      ok: true,
      value: { kind: 'proof', serialNumber: efuse.serialNumber, challenge },
    });
    expect(
      proof.ok &&
        proof.value.kind === 'proof' &&
        verifyActivationHmac(efuse.hmacKey, challenge, proof.value.hmac),
    ).toBe(true);
    expect(efuseCsv([efuse])).toBe(
      `serial_number,key\n${efuse.serialNumber},${efuse.hmacKey.toString('hex')}\n`,
    );

    const before = checkIn!.headers['client-id'];
    device.eraseNvs();
    await waitFor(() => h.ota.activations.length === 2, { what: 'the second proof' });
    const again = h.ota.checkIns.at(-1)!.headers;
    expect(again['client-id']).not.toBe(before);
    expect(again['serial-number']).toBe(efuse.serialNumber);
  });
});
