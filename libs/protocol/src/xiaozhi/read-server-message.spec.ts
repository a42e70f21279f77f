import { encodeServerMessage } from './encode-server-message';
import { goodbyeApplies, readServerMessageAsDevice } from './read-server-message';
import { serverMessage } from './server-message-builders';

describe('readServerMessageAsDevice, what the firmware acts on', () => {
  it('reads each server message type the way OnIncomingJson does', () => {
    expect(readServerMessageAsDevice(encodeServerMessage(serverMessage.ttsSentenceStart('S', 'hi')))).toEqual(
      { ok: true, value: { type: 'tts', state: 'sentence_start', text: 'hi' } },
    );
    expect(readServerMessageAsDevice(encodeServerMessage(serverMessage.system('S', 'reboot')))).toEqual({
      ok: true,
      value: { type: 'system', command: 'reboot' },
    });
    const mcp = readServerMessageAsDevice(encodeServerMessage(serverMessage.mcp('', { jsonrpc: '2.0' })));
    expect(mcp.ok && mcp.value.type).toBe('mcp');
  });

  it('does nothing with an alert missing one of its three strings', () => {
    expect(readServerMessageAsDevice('{"type":"alert","status":"Warning","message":"m"}')).toMatchObject({
      ok: false,
      error: { kind: 'ignored' },
    });
  });

  it('does nothing with an mcp payload that is not an object', () => {
    expect(readServerMessageAsDevice('{"type":"mcp","payload":"{}"}')).toMatchObject({
      ok: false,
      error: { kind: 'ignored' },
    });
  });

  it('logs an unknown type, such as the gateway error message', () => {
    expect(readServerMessageAsDevice('{"type":"error","message":"处理 hello 消息失败"}')).toMatchObject({
      ok: false,
      error: { kind: 'unknown_type' },
    });
  });

  it('reports why it ignored a hello', () => {
    expect(readServerMessageAsDevice('{"type":"hello","transport":"websocket"}')).toMatchObject({
      ok: false,
      error: { kind: 'hello_rejected', reason: 'wrong_transport' },
    });
  });

  it('honours a goodbye only for the current session', () => {
    const goodbye = readServerMessageAsDevice(encodeServerMessage(serverMessage.goodbye('a1')));
    if (!goodbye.ok) throw new Error(goodbye.error.message);
    expect(goodbyeApplies(goodbye.value, 'a1')).toBe(true);
    expect(goodbyeApplies(goodbye.value, 'a2')).toBe(false);
  });
});
