import fc from 'fast-check';
import { generate, type Packet } from 'mqtt-packet';
import type { RawFrame } from './ws-frame';

// What a device or a stranger controls, as fast-check arbitraries. Each mixes plain noise with inputs that are
// almost right (a valid message with one part broken), because parsers fail on the second far more often.

/** Strings a JSON parser, a zod schema or Postgres may choke on: NULs, lone surrogates, controls, bidi, long. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\u202egnp.exe',
    '%00',
    '../../etc/passwd',
    "'; DROP TABLE device; --",
    '{{7*7}}',
    '\r\nX-Injected: 1',
    '',
    ' ',
  ),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'x'.repeat(n)),
);

/** Any JSON value, with hostile strings in it. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(2 ** 31, -1, 1e308, -0),
    hostileString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

const bytes = (maxLength: number) => fc.uint8Array({ maxLength });

/** JSON text cut, spliced or with a byte flipped: what a device with a broken serialiser sends. */
export function damagedText(text: string): fc.Arbitrary<Buffer> {
  const raw = Buffer.from(text);
  return fc.oneof(
    fc.constant(raw),
    fc.nat(raw.length).map((at) => raw.subarray(0, at)),
    fc.tuple(fc.nat(Math.max(0, raw.length - 1)), fc.integer({ min: 1, max: 255 })).map(([at, x]) => {
      const copy = Buffer.from(raw);
      if (copy.length > 0) copy[at] = copy[at]! ^ x;
      return copy;
    }),
    fc
      .tuple(fc.nat(raw.length), bytes(16))
      .map(([at, junk]) => Buffer.concat([raw.subarray(0, at), junk, raw.subarray(at)])),
  );
}

// ---- MQTT (raw bytes on TCP or WebSocket, before any authentication) ----

const topic = fc.oneof(
  hostileString,
  fc.constantFrom(
    '#',
    '+',
    '$SYS/#',
    'device-server',
    'devices/p2p/02_00_00_00_00_01',
    'fleet/devices/#',
    '',
  ),
);

const mqttPacket: fc.Arbitrary<Packet> = fc.oneof(
  fc.record({
    cmd: fc.constant('connect' as const),
    clientId: hostileString,
    protocolVersion: fc.constantFrom(3 as const, 4 as const, 5 as const),
    protocolId: fc.constantFrom('MQTT' as const, 'MQIsdp' as const),
    clean: fc.boolean(),
    keepalive: fc.nat(65535),
    username: fc.option(hostileString, { nil: undefined }),
    password: fc.option(
      bytes(64).map((b) => Buffer.from(b)),
      { nil: undefined },
    ),
    will: fc.option(
      fc.record({
        topic,
        payload: bytes(256).map((b) => Buffer.from(b)),
        qos: fc.constantFrom(0 as const, 1 as const, 2 as const),
        retain: fc.boolean(),
      }),
      { nil: undefined },
    ),
  }),
  fc.record({
    cmd: fc.constant('publish' as const),
    topic,
    payload: bytes(512).map((b) => Buffer.from(b)),
    qos: fc.constantFrom(0 as const, 1 as const, 2 as const),
    retain: fc.boolean(),
    dup: fc.boolean(),
    messageId: fc.integer({ min: 1, max: 65535 }),
  }),
  fc.record({
    cmd: fc.constant('subscribe' as const),
    messageId: fc.integer({ min: 1, max: 65535 }),
    subscriptions: fc.array(fc.record({ topic, qos: fc.constantFrom(0 as const, 1 as const, 2 as const) }), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  fc.constantFrom<Packet>({ cmd: 'pingreq' }, { cmd: 'disconnect' }),
);

function encodable(packet: Packet): Buffer {
  try {
    return generate(packet);
  } catch {
    return Buffer.from([0x10, 0x00]); // a CONNECT with nothing in it
  }
}

/** Bytes on an MQTT port: noise, packets in any order, packets damaged, a remaining length that lies. */
export const mqttBytes: fc.Arbitrary<Buffer> = fc.oneof(
  bytes(2_048).map((b) => Buffer.from(b)),
  fc.array(mqttPacket, { minLength: 1, maxLength: 4 }).map((ps) => Buffer.concat(ps.map(encodable))),
  mqttPacket.chain((p) => damagedText(encodable(p).toString('latin1')).map((b) => Buffer.from(b))),
  // A fixed header claiming 268,435,455 bytes (the most MQTT can say), or a length that never ends.
  fc.constantFrom(
    Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]),
    Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0xff]),
  ),
);

// ---- WebSocket frames (the ListenAI link, MQTT over WebSocket) ----

const invalidUtf8 = fc.constantFrom(
  Uint8Array.from([0xff, 0xfe, 0xfd, 0xfc]),
  Uint8Array.from([0xc3, 0x28]),
  Uint8Array.from([0xed, 0xa0, 0x80]), // an encoded surrogate
  Uint8Array.from([0xf4, 0x90, 0x80, 0x80]), // past U+10FFFF
);

const framePayload: fc.Arbitrary<Uint8Array> = fc.oneof(
  bytes(256),
  invalidUtf8,
  hostileJson.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  // Past any frame limit the link has (LINK_MAX_FRAME_BYTES is 64 KiB by default).
  fc.integer({ min: 66_000, max: 80_000 }).map((n) => Buffer.alloc(n, 0x61)),
);

export const wsFrame: fc.Arbitrary<RawFrame> = fc.record({
  fin: fc.boolean(),
  rsv: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 7 })),
  opcode: fc.constantFrom(0x0, 0x1, 0x2, 0x3, 0x8, 0x9, 0xa, 0xb, 0xf),
  masked: fc.oneof(fc.constant(true), fc.boolean()),
  payload: framePayload,
  claimedLength: fc.option(fc.nat(200_000), { nil: undefined, freq: 6 }),
});

/** A few frames in a row: fragments, controls in between, a close storm. */
export const wsFrames: fc.Arbitrary<RawFrame[]> = fc.array(wsFrame, { minLength: 1, maxLength: 5 });

// ---- The OTA check-in and /activate (HTTP from anyone) ----

const CHECK_IN = {
  application: {
    name: 'xiaozhi',
    version: '1.6.0',
    compile_time: 'Jan  1 2025T00:00:00Z',
    idf_version: 'v5.3',
  },
  board: { type: 'bread-compact-wifi', name: 'bread-compact-wifi', ssid: 'fuzz', rssi: -50, channel: 1 },
  chip_model_name: 'esp32s3',
  flash_size: 16777216,
  mac_address: '02:f0:00:00:00:01',
  uuid: '6f1b7a3e-0000-4000-8000-000000000001',
  ota: { label: 'ota_0' },
  partition_table: [],
};

/** A boot report with one leaf replaced by anything, or not JSON at all. */
export const checkInBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        'application',
        'board',
        'board.type',
        'chip_model_name',
        'flash_size',
        'mac_address',
        'uuid',
        'ota.label',
      ),
      hostileJson,
    )
    .map(([path, value]) => Buffer.from(JSON.stringify(replaceAt(CHECK_IN, path.split('.'), value)))),
  damagedText(JSON.stringify(CHECK_IN)),
  bytes(512).map((b) => Buffer.from(b)),
  fc.integer({ min: 40, max: 5_000 }).map((depth) => Buffer.from('['.repeat(depth) + ']'.repeat(depth))),
);

function replaceAt(object: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy = { ...(object as Record<string, unknown>) };
  copy[head!] = replaceAt(copy[head!], rest, value);
  return copy;
}

const headerValue = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,64}$/),
  fc.constantFrom('02:f0:00:00:00:01', '6f1b7a3e-0000-4000-8000-000000000001', '2', 'x'.repeat(8_000)),
);

/** The check-in's headers: each present or not, valid or not (values stay what HTTP can carry). */
export const checkInHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      'Device-Id': headerValue,
      'Client-Id': headerValue,
      'Activation-Version': headerValue,
      'Serial-Number': headerValue,
      'User-Agent': headerValue,
      'Accept-Language': headerValue,
      'Content-Type': fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        '',
      ),
    },
    { requiredKeys: [] },
  )
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== '')));

export const activateBody: fc.Arbitrary<Buffer> = fc.oneof(
  hostileJson.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc
    .record({
      algorithm: hostileString,
      serial_number: hostileString,
      challenge: hostileString,
      hmac: hostileString,
    })
    .map((p) => Buffer.from(JSON.stringify({ Payload: p }))),
  bytes(256).map((b) => Buffer.from(b)),
);

// ---- UDP audio datagrams ----

/** Noise, a header-shaped datagram with random fields, an empty one, one at the MTU. */
export const udpDatagram: fc.Arbitrary<Buffer> = fc.oneof(
  bytes(1_400).map((b) => Buffer.from(b)),
  fc
    .tuple(fc.constantFrom(0x01, 0x00, 0xff), bytes(15), bytes(200))
    .map(([type, header, body]) => Buffer.concat([Buffer.from([type]), header, body])),
  fc.constant(Buffer.alloc(0)),
  fc.constant(Buffer.alloc(1_472, 0x01)),
);

// ---- MCP replies from a device (inside its dialect's envelope) ----

/** Where a reply's id goes: the driver puts the request's real id there (a number for xiaozhi, a string for ListenAI). */
export const REPLY_ID = '"__REPLY_ID__"';

/** A device's answer to a tools/call; `pairs` false when it carries another id (or none), so it must never pair. */
export interface FuzzReply {
  text: string;
  pairs: boolean | 'maybe';
}

/**
 * The text a device answers a tools/call with: well-formed replies of odd shapes, replies with another id or
 * none, errors with unescaped text, text cut or spliced. xiaozhi replies are JSON-RPC (xiaozhi §3); ListenAI
 * replies are the flat envelope of seed 002 (`id`, `action`, `method`, `result` or `error`).
 */
export function mcpReply(dialect: 'xiaozhi' | 'listenai'): fc.Arbitrary<FuzzReply> {
  const frame = dialect === 'xiaozhi' ? { jsonrpc: '2.0' } : { action: 'mcp', method: 'tools/call' };
  const content = fc.array(
    fc.oneof(
      fc.record({ type: fc.constant('text'), text: hostileString }),
      fc.record({ type: hostileString, text: hostileJson }),
      fc.record({ type: fc.constant('image'), data: hostileString, mimeType: hostileString }),
      hostileJson,
    ),
    { maxLength: 3 },
  );
  const body = fc.oneof(
    fc.record({ content, isError: fc.oneof(fc.boolean(), hostileJson) }).map((result) => ({ result })),
    fc
      .record({ code: fc.oneof(fc.integer(), hostileJson), message: fc.oneof(hostileString, hostileJson) })
      .map((error) => ({ error })),
    hostileJson.map((result) => ({ result })),
    fc.record({ result: hostileJson, error: hostileJson }),
    fc.constant({}),
  );
  const withId = (b: object) => JSON.stringify({ ...frame, id: '__REPLY_ID__', ...b });
  const good = JSON.stringify({
    ...frame,
    id: '__REPLY_ID__',
    result: { content: [{ type: 'text', text: 'true' }] },
  });
  return fc.oneof(
    body.map((b): FuzzReply => ({ text: withId(b), pairs: true })),
    fc
      .tuple(body, hostileJson)
      .filter(([, id]) => id !== '__REPLY_ID__')
      .map(([b, id]): FuzzReply => ({ text: JSON.stringify({ ...frame, ...b, id }), pairs: false })),
    body.map((b): FuzzReply => ({ text: JSON.stringify({ ...frame, ...b }), pairs: false })),
    hostileString.map((text): FuzzReply => ({
      text: `{"id":${REPLY_ID},"error":{"code":-32603,"message":"${text}"}}`,
      pairs: 'maybe',
    })),
    damagedText(good).map((b): FuzzReply => ({ text: b.toString('latin1'), pairs: 'maybe' })),
  );
}

/**
 * A tools/list page (xiaozhi §3.2) a device could send instead of its own: tools with any names, descriptions,
 * schemas and annotations, any cursor, or the page damaged. The request's id goes where REPLY_ID stands.
 */
export const toolsListPage: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      tools: fc.array(
        fc.record(
          {
            name: fc.oneof(hostileString, fc.constant('self.get_device_status')),
            description: fc.oneof(hostileString, hostileJson),
            inputSchema: fc.oneof(
              hostileJson,
              fc.record({
                type: fc.constant('object'),
                properties: fc.dictionary(hostileString, hostileJson),
              }),
            ),
            annotations: hostileJson,
          },
          { requiredKeys: ['name'] },
        ),
        { maxLength: 6 },
      ),
      nextCursor: fc.option(hostileString, { nil: undefined }),
    })
    .map((result) => JSON.stringify({ jsonrpc: '2.0', id: '__REPLY_ID__', result })),
  hostileJson.map((result) => JSON.stringify({ jsonrpc: '2.0', id: '__REPLY_ID__', result })),
  damagedText(
    JSON.stringify({
      jsonrpc: '2.0',
      id: '__REPLY_ID__',
      result: {
        tools: [{ name: 'self.get_device_status', description: 'status', inputSchema: { type: 'object' } }],
      },
    }),
  ).map((b) => b.toString('latin1')),
);

// ---- REST query parameters and cursors ----

const cursorJson = fc.array(hostileJson, { maxLength: 6 }).map((parts) => JSON.stringify(parts));

/** A cursor: base64url of any JSON array, of any JSON, or not base64 at all. */
export const cursor: fc.Arbitrary<string> = fc.oneof(
  cursorJson.map((text) => Buffer.from(text).toString('base64url')),
  hostileJson.map((v) => Buffer.from(JSON.stringify(v) ?? '').toString('base64url')),
  hostileString,
);

export const queryValue: fc.Arbitrary<string> = fc.oneof(
  hostileString,
  fc.constantFrom('-1', '0', '1e9', 'NaN', 'true', '2026-13-45T99:99:99Z', '02:00:00:00:00:00'),
);
