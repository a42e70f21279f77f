import { addressKey } from './address-key';
import { ConnectionBudget } from './connection-budget';
import { edgeBudgetLimits, parseOpenFileLimit } from './open-file-limit';

describe('the connection budget', () => {
  it('refuses a new connection from an address holding its share of pending slots, and takes it again once one settles', () => {
    const budget = new ConnectionBudget({ pendingMax: 10, pendingPerAddress: 2, openMax: 100 });
    expect(budget.admit('192.0.2.1')).toBeUndefined();
    expect(budget.admit('192.0.2.1')).toBeUndefined();
    expect(budget.admit('192.0.2.1')).toBe('per_address');
    expect(budget.admit('192.0.2.2')).toBeUndefined();
    budget.settle('192.0.2.1');
    expect(budget.admit('192.0.2.1')).toBeUndefined();
    expect(budget.counts).toEqual({ pending: 3, open: 4, addresses: 2 });
  });

  it('refuses past the pending total whatever the address, and past the open ceiling even when nothing is pending', () => {
    const budget = new ConnectionBudget({ pendingMax: 3, pendingPerAddress: 3, openMax: 4 });
    for (const address of ['a', 'b', 'c']) expect(budget.admit(address)).toBeUndefined();
    expect(budget.admit('d')).toBe('pending_total');
    for (const address of ['a', 'b', 'c']) budget.settle(address);
    expect(budget.admit('d')).toBeUndefined();
    budget.settle('d');
    expect(budget.admit('e')).toBe('open_files');
    budget.release('a', false);
    expect(budget.admit('e')).toBeUndefined();
  });

  it('forgets an address once its last pending connection closes', () => {
    const budget = new ConnectionBudget({ pendingMax: 10, pendingPerAddress: 5, openMax: 10 });
    budget.admit('a');
    budget.admit('a');
    budget.release('a', true);
    budget.release('a', true);
    expect(budget.counts).toEqual({ pending: 0, open: 0, addresses: 0 });
  });
});

describe('an address as the budget keys it', () => {
  it('keeps an IPv4 address, unwraps an IPv4-mapped one, and groups IPv6 by its /64', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey(undefined)).toBe('unknown');
  });
});

describe('the open-file limit', () => {
  const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             63704                63704                processes
Max open files            20000                524288               files
Max locked memory         8388608              8388608              bytes`;

  it('reads the soft limit out of /proc/self/limits, and nothing out of an unlimited one', () => {
    expect(parseOpenFileLimit(LIMITS)).toBe(20000);
    expect(
      parseOpenFileLimit('Max open files            unlimited            unlimited            files'),
    ).toBe(undefined);
  });

  it('leaves the reserve to the rest of the broker, at most a quarter of a small limit, and caps pending by what is left', () => {
    const settings = { pendingMax: 4096, pendingPerAddress: 256, reservedFiles: 1024 };
    expect(edgeBudgetLimits(settings, 20000)).toEqual({
      openMax: 18976,
      pendingMax: 4096,
      pendingPerAddress: 256,
    });
    expect(edgeBudgetLimits(settings, 1024)).toEqual({
      openMax: 768,
      pendingMax: 768,
      pendingPerAddress: 256,
    });
    expect(edgeBudgetLimits(settings, undefined).pendingMax).toBe(4096);
  });
});
