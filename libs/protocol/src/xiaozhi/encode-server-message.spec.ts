import { decodeUtf8 } from '../json/utf8';
import { encodeServerMessage } from './encode-server-message';
import { serverMessage } from './server-message-builders';
import { serverMessageSchema, type ServerMessage } from './server-messages';

describe('server → device messages', () => {
  it.each<[string, ServerMessage, string]>([
    ['goodbye', serverMessage.goodbye('S'), '{"type":"goodbye","session_id":"S"}'],
    ['tts start', serverMessage.ttsStart('S'), '{"session_id":"S","type":"tts","state":"start"}'],
    [
      'tts sentence_start',
      serverMessage.ttsSentenceStart('S', '你好呀'),
      '{"session_id":"S","type":"tts","state":"sentence_start","text":"你好呀"}',
    ],
    ['tts stop', serverMessage.ttsStop('S'), '{"session_id":"S","type":"tts","state":"stop"}'],
    [
      'stt',
      serverMessage.stt('S', '今天天气怎么样'),
      '{"session_id":"S","type":"stt","text":"今天天气怎么样"}',
    ],
    [
      'llm',
      serverMessage.llm('S', 'happy', '😀'),
      '{"session_id":"S","type":"llm","text":"😀","emotion":"happy"}',
    ],
    [
      'mcp',
      serverMessage.mcp('', { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}',
    ],
    ['system', serverMessage.system('S', 'reboot'), '{"session_id":"S","type":"system","command":"reboot"}'],
    [
      'alert',
      serverMessage.alert('S', 'Warning', 'Battery low', 'sad'),
      '{"session_id":"S","type":"alert","status":"Warning","message":"Battery low","emotion":"sad"}',
    ],
    [
      'custom',
      serverMessage.custom('S', { message: 'anything' }),
      '{"session_id":"S","type":"custom","payload":{"message":"anything"}}',
    ],
  ])('writes %s in the documented key order', (_name, message, text) => {
    expect(encodeServerMessage(message)).toBe(text);
    expect(serverMessageSchema.parse(JSON.parse(text))).toEqual(message);
  });

  it('puts the documented keys first whatever order the value was built in', () => {
    expect(encodeServerMessage({ emotion: 'sad', type: 'llm', session_id: 'S' })).toBe(
      '{"session_id":"S","type":"llm","emotion":"sad"}',
    );
  });

  it('escapes text properly, unlike the firmware', () => {
    const text = encodeServerMessage(serverMessage.stt('S', 'say "hi"\n'));
    expect(JSON.parse(text)).toMatchObject({ text: 'say "hi"\n' });
    expect(decodeUtf8(new TextEncoder().encode(text))).toBe(text);
  });
});
