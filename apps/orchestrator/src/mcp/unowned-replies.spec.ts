import { encodeUplinkWrapper } from '@fleet/protocol';
import { UnownedReplies } from './unowned-replies';

const MAC = '02:11:00:00:00:07';
const TRACE = '00-0123456789abcdef0123456789abcdef-0123456789abcdef-01';
const reply = (id: number) =>
  `{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"true"}],"isError":false}}}`;

function wrapped(id: number, connectionId: string, mac = MAC): Buffer {
  const text = encodeUplinkWrapper({
    mac,
    connectionId,
    receivedAt: '2026-12-07T04:00:00.000Z',
    traceparent: TRACE,
    raw: Buffer.from(reply(id)),
  });
  if (!text.ok) throw new Error(text.error.message);
  return Buffer.from(text.value);
}

describe('replies kept for partitions this replica does not own', () => {
  it('gives a resumed call the reply with its id from the connection its request went out on, once', () => {
    const kept = new UnownedReplies(10_000);
    kept.keep(MAC, wrapped(41, 'conn-1'));
    kept.keep(MAC, wrapped(42, 'conn-2')); // the same id from another connection pairs with nothing
    kept.keep(MAC, wrapped(42, 'conn-1'));
    const found = kept.take(MAC, 'xiaozhi', 42, 'conn-1');
    expect(found?.bytes.toString()).toBe(reply(42));
    expect(found?.receivedAt.toISOString()).toBe('2026-12-07T04:00:00.000Z');
    expect(kept.take(MAC, 'xiaozhi', 42, 'conn-1')).toBeUndefined();
    expect(kept.take(MAC, 'xiaozhi', 43, 'conn-1')).toBeUndefined();
  });

  it('forgets replies older than a lease lifetime and keeps at most its bound', () => {
    let now = 0;
    const kept = new UnownedReplies(5_000, 3, () => now);
    kept.keep(MAC, wrapped(1, 'c'));
    now = 6_000;
    expect(kept.take(MAC, 'xiaozhi', 1, 'c')).toBeUndefined();
    for (let id = 10; id < 15; id++) kept.keep(MAC, wrapped(id, 'c'));
    expect(kept.size).toBe(3);
    expect(kept.take(MAC, 'xiaozhi', 10, 'c')).toBeUndefined();
    expect(kept.take(MAC, 'xiaozhi', 14, 'c')).toBeDefined();
  });

  it('skips a malformed wrapper among the kept ones rather than throwing', () => {
    const kept = new UnownedReplies(10_000);
    kept.keep(MAC, Buffer.from('{"not":"a wrapper"'));
    kept.keep(MAC, wrapped(7, 'c'));
    expect(kept.take(MAC, 'xiaozhi', 7, 'c')).toBeDefined();
  });
});
