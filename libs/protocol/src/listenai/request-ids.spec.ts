import { durableIdOfListenAi, listenAiLinkIds, listenAiRequestId } from './request-ids';

describe('ListenAI request ids', () => {
  it('are strings in the seed shape that read back to the durable number', () => {
    for (const n of [0, 1, 64, 2_147_483_647]) {
      const id = listenAiRequestId(n);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(durableIdOfListenAi(id)).toBe(n);
    }
  });

  it('read no number from an id the platform never sends', () => {
    expect(durableIdOfListenAi('f8f90dc43fcf46b9b1309a8f1c9035da')).toBeUndefined();
    expect(durableIdOfListenAi('1')).toBeUndefined();
    expect(durableIdOfListenAi('00000000000000000000000080000000')).toBeUndefined();
    expect(() => listenAiRequestId(-1)).toThrow(RangeError);
  });

  it('derive the envelope cid and sid from the connection id', () => {
    expect(listenAiLinkIds('bc272a90-35c8-4814-99e7-4a909e6305a1')).toEqual({
      cid: 'bc272a9035c8481499e74a909e6305a1',
      sid: '4a909e6305a1',
    });
    expect(listenAiLinkIds(undefined).cid).toHaveLength(32);
  });
});
