import { PassThrough } from 'node:stream';
import { generate } from 'mqtt-packet';
import { guardPacketSizes } from './packet-size-guard';

function publish(bytes: number): Buffer {
  return generate({
    cmd: 'publish',
    topic: 'device-server',
    payload: Buffer.alloc(bytes),
    qos: 0,
    retain: false,
    dup: false,
  });
}

function feed(chunks: Buffer[], max: number): string[] {
  const stream = new PassThrough();
  const violations: string[] = [];
  guardPacketSizes(stream, max, (reason) => violations.push(reason));
  for (const c of chunks) if (!stream.destroyed) stream.write(c);
  return violations;
}

describe('the packet size guard', () => {
  it('lets packets within the limit through, whatever the chunking', () => {
    const bytes = Buffer.concat([publish(100), publish(1000), publish(0)]);
    const oneByteChunks = [...bytes].map((b) => Buffer.from([b]));
    expect(feed([bytes], 2048)).toEqual([]);
    expect(feed(oneByteChunks, 2048)).toEqual([]);
  });

  it('trips on a header that declares more than the limit, before the body arrives', () => {
    const big = publish(5000);
    expect(feed([big.subarray(0, 5)], 2048)).toEqual(['oversized']);
  });

  it('trips on a remaining length longer than four bytes', () => {
    expect(feed([Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01])], 2048)).toEqual(['malformed_length']);
  });
});
