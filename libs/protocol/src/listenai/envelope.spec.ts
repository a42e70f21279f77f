import {
  encodeListenAiDown,
  encodeListenAiUp,
  listenAiActionOf,
  listenAiDownSchema,
  listenAiUpSchema,
  readListenAiDown,
} from './envelope';

describe('the ListenAI envelope', () => {
  it('reads the seed example in both directions', () => {
    const down = {
      action: 'mcp',
      cid: 'bc272a9035c8481499e74a909e6305a1',
      sid: 'da65b86513ef',
      code: '0',
      data: {
        method: 'initialize',
        id: 'f8f90dc43fcf46b9b1309a8f1c9035da',
        params: { protocolVersion: '2024-11-05', capabilities: { vision: { url: '', token: '' } } },
      },
      desc: 'success',
    };
    expect(listenAiDownSchema.parse(down)).toEqual(down);
    expect(
      encodeListenAiDown({
        cid: down.cid,
        sid: down.sid,
        method: 'initialize',
        id: down.data.id,
        params: down.data.params,
      }),
    ).toBe(JSON.stringify(down));
    const up = {
      id: 'f8f9',
      action: 'mcp',
      method: 'initialize',
      result: {
        capabilities: { tools: {} },
        serverInfo: { name: 'arcs-mini', version: '1.0.0' },
        instructions: 'd',
      },
    };
    expect(listenAiUpSchema.parse(up)).toEqual(up);
    expect(encodeListenAiUp(up)).toBe(JSON.stringify(up));
  });

  it('refuses an upward message with neither result nor error, or a numeric id', () => {
    expect(listenAiUpSchema.safeParse({ id: 'x', action: 'mcp' }).success).toBe(false);
    expect(listenAiUpSchema.safeParse({ id: 1, action: 'mcp', result: {} }).success).toBe(false);
  });
});

describe('the ListenAI envelope at the link', () => {
  it('reads a platform downlink and refuses a xiaozhi one', () => {
    const down = encodeListenAiDown({ cid: 'c', sid: 's', method: 'tools/list', id: 'i', params: {} });
    expect(readListenAiDown(down)).toMatchObject({ ok: true, value: { data: { method: 'tools/list' } } });
    expect(readListenAiDown('{"session_id":"","type":"mcp","payload":{}}')).toMatchObject({
      ok: false,
      error: { kind: 'not_listenai' },
    });
    expect(readListenAiDown('{')).toMatchObject({ ok: false, error: { kind: 'invalid_json' } });
  });

  it('finds the action of an uplink near its start, without parsing it', () => {
    expect(listenAiActionOf(Buffer.from('{"id":"x","action":"mcp","method":"tools/list","result":{'))).toBe(
      'mcp',
    );
    expect(listenAiActionOf(Buffer.from('{"action":"asr","text":"hi"}'))).toBe('asr');
    expect(listenAiActionOf(Buffer.from('not json'))).toBeUndefined();
  });
});
