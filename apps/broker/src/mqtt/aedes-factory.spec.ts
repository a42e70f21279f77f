import type { Aedes, AedesPublishPacket } from 'aedes';
import { closeAedes, createAedes } from './aedes-factory';

const packet = (topic: string): AedesPublishPacket =>
  ({
    cmd: 'publish',
    topic,
    payload: Buffer.from('x'),
    qos: 0,
    retain: false,
    dup: false,
  }) as AedesPublishPacket;

describe('the single-process broker', () => {
  let aedes: Aedes;
  const errors: Error[] = [];

  beforeAll(async () => {
    aedes = await createAedes({ brokerId: 'aedes-factory-test', onError: (err) => errors.push(err) });
  });
  afterAll(async () => {
    await closeAedes(aedes);
  });

  // mqemitter with a concurrency limit queues what arrives beyond it and drains that queue recursively; when the
  // queued deliveries finish at once, the drain overflows the stack (mcollina/mqemitter#204). A slow subscriber
  // holding a thousand deliveries while devices keep publishing is exactly that.
  it('delivers every message published while a slow subscriber holds a thousand in flight', async () => {
    const held: (() => void)[] = [];
    await new Promise<void>((resolve) =>
      aedes.subscribe('slow/topic', (_packet, done) => void held.push(done), resolve),
    );
    let delivered = 0;
    await new Promise<void>((resolve) =>
      aedes.subscribe(
        'busy/topic',
        (_packet, done) => {
          delivered++;
          done();
        },
        resolve,
      ),
    );
    const published: Promise<void>[] = [];
    const publish = (topic: string) =>
      published.push(new Promise<void>((resolve) => aedes.publish(packet(topic), () => resolve())));
    for (let i = 0; i < 1_000; i++) publish('slow/topic');
    for (let i = 0; i < 30_000; i++) publish('busy/topic');
    for (const done of held.splice(0)) done();
    await Promise.all(published);
    expect(delivered).toBe(30_000);
    expect(errors).toEqual([]);
  });
});
