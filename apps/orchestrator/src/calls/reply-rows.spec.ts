import { decodeMcpReply, hashClientId } from '@fleet/protocol';
import type { Exchange } from '../mcp/exchange';
import { replySeen } from './call-execution';
import { responseRow, toolOutcomeOf } from '../verification/evidence-rows';

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

  it('stores the Client-Id a system-info reply repeats as its hash, in the raw bytes and the text', () => {
    const uuid = '0f9c2a4e-7b1d-4c3e-9a8f-1e2d3c4b5a69';
    const info = JSON.stringify({ version: 2, uuid, mac_address: '02:00:00:00:00:01' });
    const exchange = replied(text(info));
    const row = responseRow(exchange);
    const raw = Buffer.from(row.raw!, 'base64').toString();
    expect(raw).not.toContain(uuid);
    expect(row.text).not.toContain(uuid);
    expect(JSON.parse(row.text!)).toMatchObject({ uuid: `sha256:${hashClientId(uuid)}`, version: 2 });
    expect(row).toMatchObject({ clientIdsHashed: 1 });
    // The verdict still reads the reply as it came: a read tool's answer is its value.
    expect(toolOutcomeOf(exchange)).toMatchObject({ kind: 'success', text: info });
  });

  it('keeps a reply without a uuid byte for byte', () => {
    const row = responseRow(replied(text('{"volume":40}')));
    expect(row.clientIdsHashed).toBeUndefined();
    expect(Buffer.from(row.raw!, 'base64').toString()).toContain('{\\"volume\\":40}');
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
