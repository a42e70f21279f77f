import { decodeMcpReply, decodeMcpRequest } from './decode';
import { encodeMcpReply, encodeMcpRequest } from './encode';
import { readInitializeInfo } from './initialize-info';
import {
  INITIALIZED_NOTIFICATION,
  mcpRequests,
  type McpLink,
  type McpOutcome,
  type McpRequest,
} from './model';
import {
  readToolCallOutcome,
  toolCallOutcomeSchema,
  toolCallOutcomeToReply,
  type ToolCallOutcome,
} from './tool-call-outcome';
import { readToolsListPage } from './tools-list-page';

const xiaozhi: McpLink = { dialect: 'xiaozhi', sessionId: '' };
const listenai: McpLink = {
  dialect: 'listenai',
  cid: 'bc272a9035c8481499e74a909e6305a1',
  sid: 'da65b86513ef',
};

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('both dialects through the one model', () => {
  it('writes a xiaozhi request as the mcp envelope with a numeric id', () => {
    expect(
      unwrap(encodeMcpRequest(xiaozhi, mcpRequests.toolsList(10000, { cursor: '', withUserTools: true }))),
    ).toBe(
      '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":10000,"method":"tools/list","params":{"cursor":"","withUserTools":true}}}',
    );
    expect(unwrap(encodeMcpRequest(xiaozhi, INITIALIZED_NOTIFICATION))).toBe(
      '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","method":"notifications/initialized"}}',
    );
  });

  it('writes a ListenAI request as the action envelope with a string id', () => {
    const request = mcpRequests.initialize('f8f90dc43fcf46b9b1309a8f1c9035da', {
      vision: { url: '', token: '' },
    });
    expect(unwrap(encodeMcpRequest(listenai, request))).toBe(
      '{"action":"mcp","cid":"bc272a9035c8481499e74a909e6305a1","sid":"da65b86513ef","code":"0","data":{"method":"initialize","id":"f8f90dc43fcf46b9b1309a8f1c9035da","params":{"protocolVersion":"2024-11-05","capabilities":{"vision":{"url":"","token":""}}}},"desc":"success"}',
    );
  });

  it('writes tools/list for ListenAI as its cloud does: cursor "" first, no withUserTools', () => {
    const first = unwrap(encodeMcpRequest(listenai, mcpRequests.toolsList('a', { withUserTools: true })));
    expect(JSON.parse(first).data).toEqual({ method: 'tools/list', id: 'a', params: { cursor: '' } });
    const next = unwrap(encodeMcpRequest(listenai, mcpRequests.toolsList('b', { cursor: 'page_2_token' })));
    expect(JSON.parse(next).data.params).toEqual({ cursor: 'page_2_token' });
    const init = unwrap(
      encodeMcpRequest(listenai, mcpRequests.initialize('c', { vision: { url: 'http://v' } })),
    );
    expect(JSON.parse(init).data.params.capabilities).toEqual({ vision: { url: 'http://v', token: '' } });
  });

  it.each([
    [xiaozhi, 'x', 'invalid_id'],
    [xiaozhi, 2 ** 31, 'invalid_id'],
    [xiaozhi, -1, 'invalid_id'],
    [listenai, 5, 'invalid_id'],
  ] as const)('refuses an id the %o dialect cannot carry (%p)', (link, id, kind) => {
    expect(encodeMcpRequest(link, { id, method: 'ping' })).toMatchObject({ ok: false, error: { kind } });
  });

  it.each([
    ['xiaozhi', xiaozhi, 41],
    ['listenai', listenai, 'a9b8'],
  ] as const)('round-trips a tools/call request in %s', (_name, link, id) => {
    const request: McpRequest = mcpRequests.toolsCall(id, 'self.audio_speaker.set_volume', { volume: 40 });
    const decoded = unwrap(decodeMcpRequest(link.dialect, unwrap(encodeMcpRequest(link, request))));
    expect(decoded).toEqual({ link, message: request });
  });

  const outcomes: [string, ToolCallOutcome][] = [
    [
      'a success',
      { kind: 'success', content: [{ type: 'text', text: 'true' }], text: 'true', firmwareBoolean: true },
    ],
    ['a failure', { kind: 'failure', via: 'jsonrpc_error', message: 'Unknown tool: self.foo' }],
  ];

  it.each(outcomes)('round-trips %s of a tool call through xiaozhi', (_name, outcome) => {
    const wire = unwrap(
      encodeMcpReply(xiaozhi, { id: 3, outcome: toolCallOutcomeToReply('xiaozhi', outcome) }),
    );
    const read = unwrap(readToolCallOutcome(unwrap(decodeMcpReply('xiaozhi', wire))));
    expect(read).toEqual(outcome);
    expect(toolCallOutcomeSchema.parse(read)).toEqual(read);
  });

  it('writes a xiaozhi tool failure as a JSON-RPC error without code, and a ListenAI one as isError:true', () => {
    const failure: ToolCallOutcome = {
      kind: 'failure',
      via: 'is_error',
      message: 'arguments do not fit the inputSchema',
    };
    expect(
      unwrap(encodeMcpReply(xiaozhi, { id: 3, outcome: toolCallOutcomeToReply('xiaozhi', failure) })),
    ).toBe(
      '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":3,"error":{"message":"arguments do not fit the inputSchema"}}}',
    );
    const wire = unwrap(
      encodeMcpReply(listenai, {
        id: 'c1',
        method: 'tools/call',
        outcome: toolCallOutcomeToReply('listenai', failure),
      }),
    );
    expect(wire).toBe(
      '{"id":"c1","action":"mcp","method":"tools/call","result":{"content":[{"type":"text","text":"arguments do not fit the inputSchema"}],"isError":true}}',
    );
    expect(readToolCallOutcome(unwrap(decodeMcpReply('listenai', wire)))).toEqual({
      ok: true,
      value: { ...failure, content: [{ type: 'text', text: 'arguments do not fit the inputSchema' }] },
    });
  });

  it('reads a ListenAI image result alongside text', () => {
    const wire =
      '{"id":"c2","action":"mcp","method":"tools/call","result":{"content":[{"type":"image","data":"AQID","mimeType":"image/jpeg"},{"type":"text","text":"a cat"}]}}';
    expect(readToolCallOutcome(unwrap(decodeMcpReply('listenai', wire)))).toEqual({
      ok: true,
      value: {
        kind: 'success',
        content: [
          { type: 'image', data: 'AQID', mimeType: 'image/jpeg' },
          { type: 'text', text: 'a cat' },
        ],
        text: 'a cat',
      },
    });
  });

  it('reads initialize from both dialects, instructions from ListenAI', () => {
    const listenAiInit =
      '{"id":"f8f9","action":"mcp","method":"initialize","result":{"capabilities":{"tools":{}},"serverInfo":{"name":"arcs-mini","version":"1.0.0"},"instructions":"short description"}}';
    expect(readInitializeInfo(unwrap(decodeMcpReply('listenai', listenAiInit)))).toEqual({
      ok: true,
      value: {
        capabilities: { tools: {} },
        serverInfo: { name: 'arcs-mini', version: '1.0.0' },
        instructions: 'short description',
      },
    });
    const result = {
      protocolVersion: '2024-11-05',
      capabilities: { tools: {} },
      serverInfo: { name: 'bread-compact-wifi', version: '2.4.2' },
    };
    const wire = unwrap(encodeMcpReply(xiaozhi, { id: 1, outcome: { kind: 'result', result } }));
    expect(readInitializeInfo(unwrap(decodeMcpReply('xiaozhi', wire)))).toEqual({ ok: true, value: result });
  });

  it('reads a ListenAI tools/list page with an opaque cursor and no audience', () => {
    const inputSchema = { type: 'object', properties: { level: { type: 'number' } }, required: ['level'] };
    const result = { tools: [{ name: 'light.set', description: '灯', inputSchema }], nextCursor: 'opaque==' };
    const wire = unwrap(
      encodeMcpReply(listenai, { id: 'l1', method: 'tools/list', outcome: { kind: 'result', result } }),
    );
    expect(readToolsListPage(unwrap(decodeMcpReply('listenai', wire)))).toEqual({
      ok: true,
      value: {
        tools: [
          {
            name: 'light.set',
            description: '灯',
            inputSchema,
            userOnly: false,
            properties: [{ name: 'level', type: 'number', required: true, schema: { type: 'number' } }],
          },
        ],
        nextCursor: 'opaque==',
        skipped: [],
      },
    });
  });

  it('leaves out a listed tool holding text Postgres cannot store, and says where it was', () => {
    const result = {
      tools: [
        { name: '\u0000' },
        { name: 'self.ok', description: 'fine' },
        {
          name: 'self.odd',
          inputSchema: { type: 'object', properties: { ['a\uD800']: { type: 'string' } } },
        },
      ],
    };
    // ListenAI's JSON keeps a `\u0000` (xiaozhi's cJSON would end the string there, as the firmware does).
    const wire = unwrap(
      encodeMcpReply(listenai, { id: 'l3', method: 'tools/list', outcome: { kind: 'result', result } }),
    );
    const page = readToolsListPage(unwrap(decodeMcpReply('listenai', wire)));
    expect(page).toMatchObject({
      ok: true,
      value: {
        tools: [{ name: 'self.ok' }],
        skipped: [
          { index: 0, reason: 'holds U+0000 or a lone surrogate' },
          { index: 2, reason: 'holds U+0000 or a lone surrogate' },
        ],
      },
    });
  });

  it('gives the device error of a failed tools/list page as a typed error', () => {
    const outcome: McpOutcome = {
      kind: 'error',
      error: { message: 'Failed to add tool  because of payload size limit' },
    };
    const wire = unwrap(encodeMcpReply(xiaozhi, { id: 7, outcome }));
    expect(readToolsListPage(unwrap(decodeMcpReply('xiaozhi', wire)))).toMatchObject({
      ok: false,
      error: { kind: 'device_error' },
    });
  });

  it('never throws on ListenAI input that is not a reply', () => {
    expect(decodeMcpReply('listenai', '{"id":"x","action":"mcp"}')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_reply' },
    });
    expect(decodeMcpReply('listenai', '[')).toMatchObject({ ok: false, error: { kind: 'invalid_json' } });
    expect(decodeMcpReply('listenai', '{"id":1,"action":"mcp","result":{}}')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_reply' },
    });
  });

  it('keeps the id of a ListenAI reply cut short, so its bytes can be paired with their request', () => {
    const id = '0000000000000000000000000000002a';
    const broken = `{"id":"${id}","action":"mcp","method":"tools/call","result":{"content":[{"type":"te`;
    expect(decodeMcpReply('listenai', broken)).toMatchObject({
      ok: false,
      error: { kind: 'invalid_json', id },
    });
    expect(decodeMcpReply('listenai', 'garbage')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_json' },
    });
  });
});
