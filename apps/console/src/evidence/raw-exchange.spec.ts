import { decodeBase64, prettyJson, rawExchange } from './raw-exchange';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('the raw JSON-RPC exchange', () => {
  it('decodes the reply bytes as UTF-8, Chinese included', () => {
    expect(decodeBase64(b64('{"text":"音量 40"}'))).toBe('{"text":"音量 40"}');
  });

  it('indents a reply that is JSON and shows one that is not exactly as received', () => {
    expect(prettyJson('{"a":1}')).toEqual({ text: '{\n  "a": 1\n}', json: true });
    expect(prettyJson('{"text":"say "hi""}')).toEqual({ text: '{"text":"say "hi""}', json: false });
  });

  it('rebuilds the request from the parameters row and the reply from the response row', () => {
    const raw =
      '{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"true"}],"isError":false}}';
    const exchange = rawExchange(
      'self.audio_speaker.set_volume',
      { arguments: { volume: 40 }, validation: { ok: true, errors: [] }, firmwareWouldDo: [], limits: [] },
      { outcome: 'reply', jsonrpcId: 12, raw: b64(raw) },
    );
    expect(JSON.parse(exchange.request!)).toEqual({
      jsonrpc: '2.0',
      id: 12,
      method: 'tools/call',
      params: { name: 'self.audio_speaker.set_volume', arguments: { volume: 40 } },
    });
    expect(exchange.reply).toEqual(prettyJson(raw));
  });

  it('rebuilds a ListenAI request in its envelope, with the string id and the link ids the platform wrote', () => {
    const exchange = rawExchange(
      'set_volume',
      { arguments: { value: 40 }, validation: { ok: true, errors: [] }, firmwareWouldDo: [], limits: [] },
      { outcome: 'no_reply', jsonrpcId: 300, connectionId: 'bc272a90-35c8-4814-99e7-4a909e6305a1' },
      'listenai',
    );
    expect(JSON.parse(exchange.request!)).toEqual({
      action: 'mcp',
      cid: 'bc272a9035c8481499e74a909e6305a1',
      sid: '4a909e6305a1',
      code: '0',
      data: {
        method: 'tools/call',
        id: '0000000000000000000000000000012c',
        params: { name: 'set_volume', arguments: { value: 40 } },
      },
      desc: 'success',
    });
  });

  it('shows no request for a call that was never sent', () => {
    expect(rawExchange('self.reboot', undefined, { outcome: 'not_sent', reason: 'rejected' })).toEqual({
      request: undefined,
      reply: undefined,
      repaired: undefined,
    });
  });
});
