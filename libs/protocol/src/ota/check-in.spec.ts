import { readOtaCheckIn } from './check-in';
import { parseCompileTime } from './system-info';

const HEADERS = {
  'activation-version': '1',
  'device-id': 'a0:85:e3:f4:49:34',
  'client-id': 'aeebef32-f0ef-4bce-9d8a-894d91bc6932',
  'user-agent': 'bread-compact-wifi/2.4.2',
  'accept-language': 'zh-CN',
  'content-type': 'application/json',
};

// xiaozhi §4.2, exactly as the firmware sends it (note the space before partition_table).
const BODY =
  '{"version":2,"language":"zh-CN","flash_size":16777216,"minimum_free_heap_size":"8318340",' +
  '"mac_address":"a0:85:e3:f4:49:34","uuid":"aeebef32-f0ef-4bce-9d8a-894d91bc6932","chip_model_name":"esp32s3",' +
  '"chip_info":{"model":9,"cores":2,"revision":2,"features":18},' +
  '"application":{"name":"xiaozhi","version":"2.4.2","compile_time":"Aug  8 2026T08:33:45Z","idf_version":"v5.5.2","elf_sha256":"' +
  'ab'.repeat(32) +
  '"},' +
  '"partition_table": [{"label":"nvs","type":1,"subtype":2,"address":36864,"size":16384},{"label":"ota_0","type":0,"subtype":16,"address":131072,"size":4128768}],' +
  '"ota":{"label":"ota_0"},"display":{"monochrome":false,"width":240,"height":240},' +
  '"board":{"type":"bread-compact-wifi","name":"bread-compact-wifi","manufacturer":"","ssid":"MyWiFi","rssi":-52,"channel":6,"ip":"192.168.1.23","mac":"a0:85:e3:f4:49:34"},' +
  '"future_field":{"x":1}}';

describe('readOtaCheckIn', () => {
  it('takes identity, version, board and slot out of a real check-in without complaint', () => {
    const checkIn = readOtaCheckIn({ headers: HEADERS, body: new TextEncoder().encode(BODY) });
    expect(checkIn).toMatchObject({
      mac: 'a0:85:e3:f4:49:34',
      uuid: 'aeebef32-f0ef-4bce-9d8a-894d91bc6932',
      firmwareVersion: '2.4.2',
      boardType: 'bread-compact-wifi',
      boardName: 'bread-compact-wifi',
      otaLabel: 'ota_0',
      compileTime: '2026-08-08T08:33:45.000Z',
      headers: {
        activationVersion: '1',
        acceptLanguage: 'zh-CN',
        userAgent: { boardName: 'bread-compact-wifi', version: '2.4.2' },
      },
      complaints: [],
    });
    expect(checkIn.systemInfo?.['future_field']).toEqual({ x: 1 });
  });

  it('accepts the heap size as a number too', () => {
    const body = JSON.parse(BODY) as Record<string, unknown>;
    expect(
      readOtaCheckIn({ headers: HEADERS, body: { ...body, minimum_free_heap_size: 8318340 } }).complaints,
    ).toEqual([]);
  });

  it('complains about, but still reads, a check-in with missing and odd parts', () => {
    const body = { application: { version: '2.4.beta' }, mac_address: 'a0:85:e3:f4:49:35', board: {} };
    const checkIn = readOtaCheckIn({
      headers: { 'Device-Id': 'A0:85:E3:F4:49:34', 'user-agent': 'weird' },
      body: JSON.stringify(body),
    });
    expect(checkIn.mac).toBe('a0:85:e3:f4:49:34');
    expect(checkIn.firmwareVersion).toBe('2.4.beta');
    expect(checkIn.complaints.map((c) => c.field)).toEqual([
      'header device-id',
      'header client-id',
      'header user-agent',
      'body board.type',
      'body mac_address',
      'body application.version',
    ]);
  });

  it('never throws on a body that is not JSON, or no body at all', () => {
    expect(readOtaCheckIn({ headers: HEADERS, body: '{not json' })).toMatchObject({
      mac: 'a0:85:e3:f4:49:34',
      complaints: [{ field: 'body' }],
    });
    expect(readOtaCheckIn({ headers: {}, body: undefined }).complaints.map((c) => c.field)).toEqual([
      'header device-id',
      'header client-id',
      'body',
    ]);
  });

  it('falls back to the body for the MAC and to the User-Agent for the version', () => {
    expect(
      readOtaCheckIn({
        headers: { 'user-agent': 'bread-compact-wifi/2.4.2' },
        body: { mac_address: 'a0:85:e3:f4:49:34' },
      }),
    ).toMatchObject({
      mac: 'a0:85:e3:f4:49:34',
      firmwareVersion: '2.4.2',
      boardName: 'bread-compact-wifi',
    });
  });

  it('refuses a Client-Id that is not a UUID, or too long, without repeating it anywhere', () => {
    for (const clientId of ['x'.repeat(8000), 'GID_a@@@a0_85_e3_f4_49_34@@@u', 'aeebef32']) {
      const checkIn = readOtaCheckIn({
        headers: { ...HEADERS, 'client-id': clientId },
        body: new TextEncoder().encode(BODY),
      });
      expect(checkIn.uuid).toBeUndefined();
      expect(checkIn.clientIdRefused).toBe(true);
      expect(JSON.stringify(checkIn.complaints)).not.toContain(clientId);
    }
  });

  it('bounds every header it reads and keeps only what the firmware would send', () => {
    const checkIn = readOtaCheckIn({
      headers: {
        ...HEADERS,
        'activation-version': '2',
        'serial-number': 'S'.repeat(33),
        'user-agent': `${'b'.repeat(300)}/2.4.2`,
      },
      body: new TextEncoder().encode(BODY),
    });
    expect(checkIn.serialNumber).toBeUndefined();
    expect(checkIn.headers.userAgent).toBeUndefined();
    expect(checkIn.headers.refused).toEqual(['serial-number', 'user-agent']);
    expect(checkIn.headers.activationVersion).toBe('2');
  });

  it("keeps the body's uuid only as its hash, and complains about a mismatch without naming it", () => {
    const other = BODY.replace(
      'aeebef32-f0ef-4bce-9d8a-894d91bc6932',
      '11111111-2222-4333-8444-555555555555',
    );
    const checkIn = readOtaCheckIn({ headers: HEADERS, body: new TextEncoder().encode(other) });
    expect(checkIn.uuid).toBe('aeebef32-f0ef-4bce-9d8a-894d91bc6932');
    expect(checkIn.systemInfo?.['uuid']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(checkIn)).not.toContain('11111111-2222-4333-8444-555555555555');
    expect(checkIn.complaints).toEqual([
      { field: 'body uuid', problem: 'differs from the Client-Id header' },
    ]);
  });

  it('reads the firmware compile time, its day padded with a space', () => {
    expect(parseCompileTime('Jan 12 2025T23:59:01Z')).toBe('2025-01-12T23:59:01.000Z');
    expect(parseCompileTime('2025-01-12T23:59:01Z')).toBe('2025-01-12T23:59:01.000Z');
    expect(parseCompileTime('yesterday')).toBeUndefined();
  });
});
