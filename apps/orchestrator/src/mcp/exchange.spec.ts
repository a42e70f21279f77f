import { createHash } from 'node:crypto';
import type { McpReply } from '@fleet/protocol';
import { discoveryRecords, type Exchange } from './exchange';

const sentAt = new Date('2026-12-07T10:00:00.000Z');
const receivedAt = new Date('2026-12-07T10:00:00.040Z');
const reply = (id: number, raw: Buffer): Exchange => ({
  request: { id, method: 'tools/list', params: {} },
  jsonrpcId: id,
  connectionId: 'c1',
  sentAt,
  outcome: { kind: 'reply', reply: {} as McpReply, raw, receivedAt },
});
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// DESIGN §3: a discovery's exchanges are recorded with its catalog version; each reply by the hash of its bytes.
describe('discovery records', () => {
  it('name each reply by the SHA-256 of its exact bytes and carry each distinct reply once', () => {
    const page = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}'),
      Buffer.from([0xc3]),
    ]);
    const other = Buffer.from('{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}');
    const timedOut: Exchange = {
      ...reply(4, Buffer.alloc(0)),
      outcome: { kind: 'timeout', timeoutMs: 5_000 },
    };
    const records = discoveryRecords([reply(2, page), reply(2, page), reply(3, other), timedOut]);
    expect(records.exchanges).toEqual([
      expect.objectContaining({ jsonrpcId: 2, outcome: 'reply', latencyMs: 40, rawSha256: sha256(page) }),
      expect.objectContaining({ jsonrpcId: 2, rawSha256: sha256(page) }),
      expect.objectContaining({ jsonrpcId: 3, rawSha256: sha256(other) }),
      {
        method: 'tools/list',
        jsonrpcId: 4,
        connectionId: 'c1',
        sentAt: sentAt.toISOString(),
        outcome: 'no_reply',
        timeoutMs: 5_000,
      },
    ]);
    expect(records.replies).toEqual([
      { sha256: sha256(page), raw: page },
      { sha256: sha256(other), raw: other },
    ]);
    expect(JSON.stringify(records.exchanges)).not.toContain('"raw"');
  });
});
