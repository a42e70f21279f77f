import { decodeUplinkWrapper, type Mac } from '@fleet/protocol';
import { wrapUplink } from './uplink-wrapper';

// wrapUplink writes the wrapper without the contract's encoder (it is on every device publish); the contract's
// decoder is the judge of what it writes.
describe('the uplink wrapper', () => {
  const mac = '02:4a:00:00:00:07' as Mac;
  const connectionId = '5f0c2d8e-3b7a-4c1e-9a51-0d6f2b9e8c11';

  it('writes a wrapper the contract accepts, carrying the exact bytes, on the topic of its kind', () => {
    const text = '{"session_id":"","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"result":{}}}';
    const wrapped = wrapUplink(mac, connectionId, Buffer.from(text), new Date('2026-01-02T03:04:05.678Z'));
    expect(wrapped).toMatchObject({
      topic: 'fleet/devices/02_4a_00_00_00_07/up/mcp',
      kind: 'mcp',
      type: 'mcp',
    });
    const decoded = decodeUplinkWrapper(wrapped.payload);
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(decoded.value).toMatchObject({ mac, connectionId, receivedAt: '2026-01-02T03:04:05.678Z' });
    expect(Buffer.from(decoded.value.bytes).toString('utf8')).toBe(text);
  });

  it('keeps bytes that are not JSON or not UTF-8, as kind other, with a fresh trace each time', () => {
    const raw = Buffer.from([0xff, 0x00, 0x22, 0x5c, 0x80, 0x7b]);
    const first = wrapUplink(mac, connectionId, raw);
    const second = wrapUplink(mac, connectionId, raw);
    expect(first.kind).toBe('other');
    const [a, b] = [first, second].map((w) => {
      const decoded = decodeUplinkWrapper(w.payload);
      if (!decoded.ok) throw new Error(decoded.error.message);
      return decoded.value;
    });
    expect(Buffer.from(a!.bytes).equals(raw)).toBe(true);
    expect(a!.traceparent).not.toBe(b!.traceparent);
  });
});
