import fc from 'fast-check';
import { literalFirmwarePayload, readsAlikeLiterally } from './reply-repair';

// Strings as the firmware might splice them: plain, with quotes, backslashes, control characters, lone surrogates.
const spliced = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', 'self.reboot', 'a","x":"b', 'C:\\new', 'a\\"b', '\u0000', '\ud800', 'a"}}'),
);
const tool = fc.record({ name: fc.string(), description: fc.string({ unit: 'binary' }) });
const id = fc.integer({ min: -5, max: 2 ** 31 });
const page = fc.record({
  jsonrpc: fc.constant('2.0'),
  id,
  result: fc.record({ tools: fc.array(tool, { maxLength: 4 }), nextCursor: spliced }),
});
const error = fc.record({ jsonrpc: fc.constant('2.0'), id, error: fc.record({ message: spliced }) });
const initialize = fc.record({
  jsonrpc: fc.constant('2.0'),
  id,
  result: fc.record({
    protocolVersion: fc.constant('2024-11-05'),
    capabilities: fc.constant({ tools: {} }),
    serverInfo: fc.record({ name: spliced, version: spliced }),
  }),
});

/** The text the firmware writes: its template with the spliced fields left unescaped (xiaozhi §3.1). */
function firmwareText(reply: Record<string, unknown>): string {
  const r = reply as {
    id: number;
    error?: { message: string };
    result?: { tools?: unknown[]; nextCursor?: string; serverInfo?: { name: string; version: string } };
  };
  const head = `{"jsonrpc":"2.0","id":${r.id},`;
  if (r.error) return `${head}"error":{"message":"${r.error.message}"}}`;
  if (r.result?.tools) {
    return `${head}"result":{"tools":${JSON.stringify(r.result.tools)},"nextCursor":"${r.result.nextCursor}"}}`;
  }
  const info = r.result!.serverInfo!;
  return `${head}"result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"${info.name}","version":"${info.version}"}}}`;
}

function parses(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// Replies of no template (a tools/call result, say), and template-like ones with keys added or reordered.
const anyReply = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id, result: fc.jsonValue() }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, error: fc.jsonValue() }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id,
    result: fc.record({ tools: fc.array(tool), nextCursor: spliced, more: fc.jsonValue() }),
  }),
  fc.record({
    id,
    jsonrpc: fc.constant('2.0'),
    result: fc.record({ tools: fc.array(tool), nextCursor: spliced }),
  }),
);

describe('readsAlikeLiterally', () => {
  it('is true only where the literal reading agrees with JSON.parse, for every firmware template', () => {
    fc.assert(
      fc.property(fc.oneof(page, error, initialize), (reply) => {
        const text = firmwareText(reply);
        const parsed = parses(text);
        if (parsed === undefined) return;
        const literal = literalFirmwarePayload(text);
        const agree = !literal || JSON.stringify(literal.payload) === JSON.stringify(parsed);
        if (readsAlikeLiterally(text, parsed)) expect(agree).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is true only where the literal reading agrees with JSON.parse, for replies of any other shape', () => {
    fc.assert(
      fc.property(anyReply, (reply) => {
        const text = JSON.stringify(reply);
        const parsed = JSON.parse(text) as unknown;
        const literal = literalFirmwarePayload(text);
        const agree = !literal || JSON.stringify(literal.payload) === JSON.stringify(parsed);
        if (readsAlikeLiterally(text, parsed)) expect(agree).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is true for a page whose tool descriptions hold escapes, as the firmware sends (xiaozhi §3.1)', () => {
    const text =
      '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"self.a","description":"line one\\nline \\"two\\""}],' +
      '"nextCursor":"self.b"}}';
    expect(readsAlikeLiterally(text, JSON.parse(text))).toBe(true);
  });

  it('is false where a spliced field needs the literal reading', () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":3,"error":{"message":"C:\\new"}}',
      '{"jsonrpc":"2.0","id":2,"result":{"tools":[],"nextCursor":"a\\u0041"}}',
      '{"jsonrpc":"2.0","id":2,"result":{"tools":[],"nextCursor":"a","nextCursor":"b"}}',
      '{"jsonrpc":"2.0", "id":2,"result":{"tools":[],"nextCursor":"a"}}',
      '{"jsonrpc":"2.0","id":0,"error":{"message":"a","x":"b"}}',
    ]) {
      expect({ text, alike: readsAlikeLiterally(text, JSON.parse(text)) }).toEqual({ text, alike: false });
    }
  });
});
