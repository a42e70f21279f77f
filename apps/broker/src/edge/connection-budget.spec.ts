import { addressKey } from './address-key';
import { ConnectionBudget } from './connection-budget';
import { edgeBudgetLimits, parseOpenFileLimit } from './open-file-limit';

describe('the connection budget', () => {
  const from = (address: string) => ({ address });

  it('refuses a new connection from an address holding its share of pending slots, and takes it again once one authenticates', () => {
    const budget = new ConnectionBudget({ pendingMax: 10, pendingPerAddress: 2, openMax: 100 });
    const [a1, a2] = [from('192.0.2.1'), from('192.0.2.1')];
    expect(budget.admit(a1)).toEqual({ ok: true });
    expect(budget.admit(a2)).toEqual({ ok: true });
    expect(budget.admit(from('192.0.2.1'))).toEqual({ ok: false, reason: 'per_address' });
    expect(budget.admit(from('192.0.2.2'))).toEqual({ ok: true });
    budget.settle(a1);
    expect(budget.admit(from('192.0.2.1'))).toEqual({ ok: true });
    expect(budget.counts).toEqual({ pending: 3, open: 4, addresses: 2 });
  });

  it('makes room past the pending total by giving up the longest-pending connection, whatever its address', () => {
    const budget = new ConnectionBudget({ pendingMax: 3, pendingPerAddress: 3, openMax: 100 });
    const [a, b, c] = [from('a'), from('b'), from('c')];
    for (const entry of [a, b, c]) budget.admit(entry);
    budget.settle(a); // authenticated: no longer anyone's to give up
    const d = from('d');
    expect(budget.admit(d)).toEqual({ ok: true });
    expect(budget.admit(from('e'))).toEqual({ ok: true, evicted: b });
    expect(budget.isPending(b)).toBe(false);
    expect(budget.counts).toEqual({ pending: 3, open: 4, addresses: 3 });
  });

  it('refuses at the open ceiling only when nothing pending can give way', () => {
    const budget = new ConnectionBudget({ pendingMax: 10, pendingPerAddress: 10, openMax: 2 });
    const [a, b] = [from('a'), from('a')];
    budget.admit(a);
    budget.admit(b);
    expect(budget.admit(from('c'))).toEqual({ ok: true, evicted: a });
    const full = new ConnectionBudget({ pendingMax: 10, pendingPerAddress: 10, openMax: 1 });
    const only = from('a');
    full.admit(only);
    full.settle(only);
    expect(full.admit(from('b'))).toEqual({ ok: false, reason: 'open_files' });
    full.release(only);
    expect(full.admit(from('b'))).toEqual({ ok: true });
  });

  it('forgets an address once its last pending connection closes', () => {
    const budget = new ConnectionBudget({ pendingMax: 10, pendingPerAddress: 5, openMax: 10 });
    const [a1, a2] = [from('a'), from('a')];
    budget.admit(a1);
    budget.admit(a2);
    budget.release(a1);
    budget.release(a2);
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
