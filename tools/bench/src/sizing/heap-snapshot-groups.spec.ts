import { groupKey, growth, type HeapGroup } from './heap-snapshot-groups';

const groups = (...list: HeapGroup[]) => new Map(list.map((g) => [g.key, g]));

describe('heap snapshot groups', () => {
  it('groups objects and closures by name, strings and code by type alone', () => {
    expect(groupKey('object', 'Socket')).toBe('object:Socket');
    expect(groupKey('closure', 'onData')).toBe('closure:onData');
    expect(groupKey('string', 'a device id')).toBe('(string)');
    expect(groupKey('concatenated string', 'x')).toBe('(concatenated string)');
    expect(groupKey('code', 'parse')).toBe('(code)');
  });

  it('orders the groups by growth in bytes per device, new groups included', () => {
    const before = groups({ key: 'object:Socket', count: 10, selfBytes: 3_000 });
    const after = groups(
      { key: 'object:Socket', count: 1_010, selfBytes: 303_000 },
      { key: 'object:Client', count: 1_000, selfBytes: 298_000 },
    );
    expect(growth(before, after, 1_000)).toEqual([
      { key: 'object:Socket', countPerUnit: 1, bytesPerUnit: 300 },
      { key: 'object:Client', countPerUnit: 1, bytesPerUnit: 298 },
    ]);
  });
});
