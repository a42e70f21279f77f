import {
  decodePresenceEvent,
  decodeUplinkWrapper,
  encodePresenceEvent,
  encodeUplinkWrapper,
  type PresenceEvent,
} from './uplink-wrapper';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('the broker uplink wrapper and presence event', () => {
  it('carries the exact device bytes, even invalid JSON, through base64', () => {
    const raw = new TextEncoder().encode(
      '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":7,"error":{"message":"x/"a""}}}',
    );
    const text = encodeUplinkWrapper({
      mac: 'a0:85:e3:f4:49:34',
      connectionId: 'c-1',
      receivedAt: '2026-01-01T00:00:00.000Z',
      traceparent: TRACEPARENT,
      raw,
    });
    if (!text.ok) throw new Error(text.error.message);
    const decoded = decodeUplinkWrapper(text.value);
    expect(decoded.ok && decoded.value.bytes).toEqual(raw);
  });

  it('refuses a wrapper with a MAC off the canonical form or a bad traceparent', () => {
    const base = { connectionId: 'c-1', receivedAt: '2026-01-01T00:00:00Z', raw: new Uint8Array() };
    expect(
      encodeUplinkWrapper({ ...base, mac: 'A0:85:E3:F4:49:34', traceparent: TRACEPARENT }),
    ).toMatchObject({ ok: false });
    expect(encodeUplinkWrapper({ ...base, mac: 'a0:85:e3:f4:49:34', traceparent: 'x' })).toMatchObject({
      ok: false,
    });
    expect(decodeUplinkWrapper('{"mac":"a0:85:e3:f4:49:34"}')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_wrapper' },
    });
  });

  it('round-trips a presence event', () => {
    const event: PresenceEvent = {
      mac: 'a0:85:e3:f4:49:34',
      connectionId: 'c-1',
      clientIdFingerprint: '1a2b3c4d',
      brokerId: 'broker-0',
      state: 'offline',
      reason: 'keepalive_timeout',
      at: '2026-01-01T00:00:00.000Z',
      keepalive: 240,
    };
    const text = encodePresenceEvent(event);
    expect(text.ok && decodePresenceEvent(text.value)).toEqual({ ok: true, value: event });
    // DESIGN §3: a presence event never carries the Client-Id itself.
    expect(
      encodePresenceEvent({ ...event, clientIdFingerprint: 'aeebef32-f0ef-4bce-9d8a-894d91bc6932' }).ok,
    ).toBe(false);
    expect(decodePresenceEvent('{"state":"away"}')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_presence' },
    });
  });
});
