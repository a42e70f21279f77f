import { decodeMcpReply } from '@fleet/protocol';
import type { Exchange } from '../mcp/exchange';
import { replySeen } from './call-execution';
import { responseRow, toolOutcomeOf } from './response-rows';

const sentAt = new Date('2026-12-02T00:00:00.000Z');
const receivedAt = new Date('2026-12-02T00:00:00.040Z');

function replied(result: unknown): Exchange {
  const raw = Buffer.from(
    JSON.stringify({ session_id: '', type: 'mcp', payload: { jsonrpc: '2.0', id: 5, result } }),
  );
  const decoded = decodeMcpReply('xiaozhi', raw);
  if (!decoded.ok) throw new Error(decoded.error.message);
  return {
    request: { id: 5, method: 'tools/call' },
    jsonrpcId: 5,
    connectionId: 'c-1',
    sentAt,
    outcome: { kind: 'reply', reply: decoded.value, raw, receivedAt },
  };
}
const text = (t: string, isError = false) => ({ content: [{ type: 'text', text: t }], isError });

describe('the response row and the reply the verdict table reads', () => {
  it('records a reply with its raw bytes, latency and text', () => {
    const row = responseRow(replied(text('false')));
    expect(row).toMatchObject({
      outcome: 'reply',
      jsonrpcId: 5,
      connectionId: 'c-1',
      latencyMs: 40,
      text: 'false',
    });
    expect(Buffer.from(row.raw!, 'base64').toString()).toContain('"id":5');
  });

  it('records "no reply within T" for a timeout, and the reply as none', () => {
    const timeout: Exchange = {
      request: { id: 6, method: 'tools/call' },
      jsonrpcId: 6,
      connectionId: 'c-1',
      sentAt,
      outcome: { kind: 'timeout', timeoutMs: 2000 },
    };
    expect(responseRow(timeout)).toMatchObject({ outcome: 'no_reply', reason: 'no reply within 2000 ms' });
    expect(replySeen(timeout).reply).toEqual({ kind: 'none', reason: 'no reply within 2000 ms' });
  });

  it('reads isError:true as a failure, with the device text', () => {
    const exchange = replied(text('no such theme', true));
    expect(toolOutcomeOf(exchange)).toMatchObject({ kind: 'failure', message: 'no such theme' });
    expect(responseRow(exchange)).toMatchObject({ isError: true, errorText: 'no such theme' });
    expect(replySeen(exchange)).toMatchObject({
      reply: { kind: 'failure', message: 'no such theme' },
      result: { text: 'no such theme', isError: true },
    });
  });

  it('reads a "false" as a successful answer: whether it is a failure is the recipe\'s to say', () => {
    expect(replySeen(replied(text('false')))).toMatchObject({
      reply: { kind: 'success', text: 'false' },
      result: { text: 'false', isError: false },
    });
  });
});
