import { loadMcpVectors } from '../../test/vectors';
import { deviceMessage } from '../xiaozhi/device-message-builders';
import { decodeMcpReply } from './decode';
import { readToolCallOutcome } from './tool-call-outcome';
import { readToolsListPage } from './tools-list-page';

const replies = loadMcpVectors().flatMap((v) =>
  v.replies.map((reply) => ({ case: v.case, request: v.request, reply })),
);

describe('reading every reply of the 2.4.2 vectors into the model', () => {
  it.each(replies.map((r) => [r.case, r] as const))('reads the reply to %s', (_case, { request, reply }) => {
    const decoded = decodeMcpReply('xiaozhi', deviceMessage.mcp('a1b2', reply));
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(decoded.value.id).toBe(Number(/"id":(-?\d+)/.exec(reply)![1]));
    expect(decoded.value.sessionId).toBe('a1b2');
    const literalError = /"error":\{"message":"([\s\S]*)"\}\}$/.exec(reply)?.[1];
    if (literalError !== undefined) {
      expect(decoded.value.outcome).toEqual({ kind: 'error', error: { message: literalError } });
    }
    if (request.includes('"tools/list"') && literalError === undefined) {
      expect(readToolsListPage(decoded.value).ok).toBe(true);
    }
    if (request.includes('"tools/call"')) expect(readToolCallOutcome(decoded.value).ok).toBe(true);
  });

  it('marks only the replies whose unescaped text broke the JSON', () => {
    const repaired = replies.filter((r) => {
      const decoded = decodeMcpReply('xiaozhi', deviceMessage.mcp('', r.reply));
      return decoded.ok && decoded.value.repaired !== undefined;
    });
    expect(repaired.map((r) => r.case)).toEqual([
      'unknown tool name with quote',
      'preview_image url http://x/"a".png',
    ]);
  });

  it('reads set_theme "false" as a firmware boolean false', () => {
    const decoded = decodeMcpReply(
      'xiaozhi',
      deviceMessage.mcp(
        '',
        '{"jsonrpc":"2.0","id":22,"result":{"content":[{"type":"text","text":"false"}],"isError":false}}',
      ),
    );
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(readToolCallOutcome(decoded.value)).toEqual({
      ok: true,
      value: {
        kind: 'success',
        content: [{ type: 'text', text: 'false' }],
        text: 'false',
        firmwareBoolean: false,
      },
    });
  });

  it('reads a tools/list page with userOnly from annotations.audience and the name cursor', () => {
    const page1 = replies.find((r) => r.case.startsWith('tools/list withUserTools=true page 2'))!;
    const decoded = decodeMcpReply('xiaozhi', deviceMessage.mcp('', page1.reply));
    const page = decoded.ok ? readToolsListPage(decoded.value) : undefined;
    if (!page?.ok) throw new Error('unreadable page');
    expect(page.value.nextCursor).toBeUndefined();
    expect(page.value.tools.filter((t) => t.userOnly)).toHaveLength(7);
    expect(page.value.tools.find((t) => t.name === 'self.screen.snapshot')?.properties).toEqual([
      { name: 'url', type: 'string', required: true, schema: { type: 'string' } },
      {
        name: 'quality',
        type: 'integer',
        required: false,
        default: 80,
        minimum: 1,
        maximum: 100,
        schema: { type: 'integer', default: 80, minimum: 1, maximum: 100 },
      },
    ]);
  });

  it('keeps the id of a firmware reply it cannot read', () => {
    const decoded = decodeMcpReply(
      'xiaozhi',
      '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":9,"result":{"a":"b"c"}}}',
    );
    expect(decoded).toMatchObject({ ok: false, error: { kind: 'invalid_json', id: 9 } });
  });

  it('refuses a device message that is not an MCP reply', () => {
    expect(decodeMcpReply('xiaozhi', deviceMessage.goodbye('S'))).toMatchObject({
      ok: false,
      error: { kind: 'not_mcp' },
    });
  });
});
