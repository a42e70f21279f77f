import { ChainWalk, type StoredLink } from './chain-walk';
import { evidenceHash, GENESIS_HASH, type ChainLink } from './evidence-chain';

function chain(deviceId: string, stages: ChainLink[], from = { seq: 0, hash: GENESIS_HASH }): StoredLink[] {
  let prev = from.hash;
  return stages.map((stage, i) => {
    const seq = String(from.seq + i + 1);
    const link = {
      deviceId,
      seq,
      callId: 'c1',
      stage,
      payload: { i },
      prevHash: prev,
      createdAt: '2026-12-01T00:00:00.000Z',
    };
    const hash = evidenceHash(prev, link);
    prev = hash;
    return { ...link, hash };
  });
}

describe('a chain walk', () => {
  it('finds an untouched chain intact, seal links included', () => {
    const walk = new ChainWalk();
    for (const link of chain('d1', ['discovery', 'decision', 'parameters', 'response', 'effect', 'seal']))
      expect(walk.next(link)).toBeUndefined();
    expect(walk.breaks()).toEqual([]);
    expect(walk.links).toBe(6);
  });

  it('names the first changed link of each device and only that one', () => {
    const links = chain('d1', ['discovery', 'decision', 'seal']);
    links[1] = { ...links[1]!, payload: { i: 99 } };
    const walk = new ChainWalk();
    links.forEach((l) => walk.next(l));
    expect(walk.breaks()).toEqual([
      expect.objectContaining({ deviceId: 'd1', seq: '2', stage: 'decision', problem: 'hash_mismatch' }),
    ]);
  });

  it('notices a removed link, and a first link that does not start at the genesis hash', () => {
    const links = chain('d1', ['discovery', 'decision', 'seal']);
    const walk = new ChainWalk();
    walk.next(links[0]!);
    walk.next(links[2]!);
    expect(walk.breaks()[0]).toMatchObject({ seq: '3', problem: 'seq_gap' });
    const headless = new ChainWalk();
    headless.next(links[1]!);
    expect(headless.breaks()[0]).toMatchObject({ seq: '2', problem: 'prev_hash_mismatch' });
  });

  it('starts a segment where it is told to, and checks recorded heads', () => {
    const links = chain('d1', ['discovery', 'decision', 'parameters']);
    const walk = new ChainWalk(
      (_d, seq) => (seq === '3' ? 'not-the-hash' : undefined),
      () => ({ prevHash: links[0]!.hash, seq: 1n }),
    );
    expect(walk.next(links[1]!)).toBeUndefined();
    expect(walk.next(links[2]!)).toMatchObject({ seq: '3', problem: 'head_mismatch' });
    expect(walk.headsChecked).toBe(1);
  });
});
