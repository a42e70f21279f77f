import { deviceMessage } from './device-message-builders';
import { parseDeviceMessage } from './parse-device-message';

const value = (input: string | Uint8Array) => {
  const r = parseDeviceMessage(input);
  if (!r.ok) throw new Error(`${r.error.kind}: ${r.error.message}`);
  return r.value;
};

describe('parseDeviceMessage', () => {
  it('reads every message the firmware publishes', () => {
    expect(
      value(
        deviceMessage.hello({
          serverAec: true,
          glyphPush: true,
          textFont: { bundle: 'noto-v1', charset: 'common', size: 20, bpp: 4 },
        }),
      ).message,
    ).toMatchObject({
      type: 'hello',
      version: 3,
      transport: 'udp',
      features: { aec: true, mcp: true, glyph_push: true },
      audio_params: { format: 'opus', sample_rate: 16000, channels: 1, frame_duration: 60 },
    });
    expect(value(deviceMessage.listenStart('S', 'realtime')).message).toEqual({
      session_id: 'S',
      type: 'listen',
      state: 'start',
      mode: 'realtime',
    });
    expect(value(deviceMessage.listenStop('S')).message).toEqual({
      session_id: 'S',
      type: 'listen',
      state: 'stop',
    });
    expect(value(deviceMessage.listenDetect('S', '你好小智')).message).toEqual({
      session_id: 'S',
      type: 'listen',
      state: 'detect',
      text: '你好小智',
    });
    expect(value(deviceMessage.abort('S')).message).toEqual({ session_id: 'S', type: 'abort' });
    expect(value(deviceMessage.abort('S', 'wake_word_detected')).message).toEqual({
      session_id: 'S',
      type: 'abort',
      reason: 'wake_word_detected',
    });
    expect(value(deviceMessage.goodbye('S')).message).toEqual({ session_id: 'S', type: 'goodbye' });
    expect(
      value(new TextEncoder().encode(deviceMessage.mcp('', '{"jsonrpc":"2.0","id":1,"result":{}}'))).message,
    ).toEqual({
      session_id: '',
      type: 'mcp',
      payload: { jsonrpc: '2.0', id: 1, result: {} },
    });
  });

  it('recovers the id and message of an error reply the firmware broke by not escaping it', () => {
    const raw = deviceMessage.mcp(
      'a1b2',
      '{"jsonrpc":"2.0","id":7,"error":{"message":"Failed to open URL: http://x/"a""}}',
    );
    expect(() => JSON.parse(raw) as unknown).toThrow();
    expect(value(raw)).toEqual({
      message: {
        session_id: 'a1b2',
        type: 'mcp',
        payload: { jsonrpc: '2.0', id: 7, error: { message: 'Failed to open URL: http://x/"a"' } },
      },
      repaired: 'unescaped_error_message',
    });
  });

  it('keeps a backslash in an unescaped error message as the firmware meant it', () => {
    const raw = deviceMessage.mcp('', '{"jsonrpc":"2.0","id":3,"error":{"message":"Unknown tool: a\\b"}}');
    expect(value(raw).message).toMatchObject({ payload: { error: { message: 'Unknown tool: a\\b' } } });
  });

  it('recovers a nextCursor and a board name spliced in unescaped', () => {
    const page = deviceMessage.mcp(
      '',
      '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a"}],"nextCursor":"q"1"}}',
    );
    expect(value(page)).toMatchObject({
      message: { payload: { id: 2, result: { tools: [{ name: 'a' }], nextCursor: 'q"1' } } },
      repaired: 'unescaped_next_cursor',
    });
    const init = deviceMessage.mcp(
      '',
      '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"my "board"","version":"2.4.2"}}}',
    );
    expect(value(init)).toMatchObject({
      message: { payload: { result: { serverInfo: { name: 'my "board"', version: '2.4.2' } } } },
      repaired: 'unescaped_server_info',
    });
  });

  it('reads around a session id with a quote in it', () => {
    expect(value(deviceMessage.mcp('a"b', '{"jsonrpc":"2.0","id":1,"result":{}}'))).toMatchObject({
      message: { session_id: 'a"b' },
      repaired: 'unescaped_session_id',
    });
  });

  it('keeps the id of a reply it cannot read at all', () => {
    const r = parseDeviceMessage(
      '{"session_id":"S","type":"mcp","payload":{"jsonrpc":"2.0","id":12,"result":{"x":"a"b"}}}',
    );
    expect(r).toMatchObject({
      ok: false,
      error: { kind: 'invalid_json', type: 'mcp', sessionId: 'S', id: 12 },
    });
  });

  it.each([
    ['{"type":', 'invalid_json'],
    ['[1,2]', 'not_an_object'],
    ['"hello"', 'not_an_object'],
    ['{"session_id":"S"}', 'missing_type'],
    ['{"type":7}', 'missing_type'],
    ['{"session_id":"S","type":"udp_timeout"}', 'unknown_type'],
    ['{"session_id":"S","type":"listen","state":"start","mode":"loud"}', 'invalid_message'],
    ['{"session_id":"S","type":"listen","state":"detect"}', 'invalid_message'],
    ['{"type":"goodbye"}', 'invalid_message'],
    ['{"session_id":"S","type":"mcp","payload":[1]}', 'invalid_message'],
  ])('returns a typed error for %s (%s) and never throws', (input, kind) => {
    const r = parseDeviceMessage(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe(kind);
      expect(r.error.message).not.toBe('');
    }
  });

  it('refuses oversized input before reading it', () => {
    expect(parseDeviceMessage(new Uint8Array(70_000))).toMatchObject({
      ok: false,
      error: { kind: 'too_large' },
    });
    expect(parseDeviceMessage('{"session_id":"","type":"goodbye"}', { maxBytes: 10 })).toMatchObject({
      ok: false,
      error: { kind: 'too_large' },
    });
  });

  it('keeps fields it does not know', () => {
    expect(value('{"session_id":"S","type":"goodbye","extra":1}').message).toEqual({
      session_id: 'S',
      type: 'goodbye',
      extra: 1,
    });
  });

  it('treats a __proto__ key as data, not as a prototype', () => {
    const parsed = value('{"session_id":"S","type":"goodbye","__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((parsed.message as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
