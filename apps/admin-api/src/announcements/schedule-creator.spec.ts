import { creatorRefusal, type ScheduleCreator } from './schedule-creator';

const allowed: ScheduleCreator = {
  email: 'ops@example.com',
  role: 'operator',
  disabled: false,
  key: { role: 'operator', revoked: false, groupScoped: true, deviceInGroups: true },
};

describe("a schedule run's check of its creator", () => {
  it('lets an operator (or an admin) run it through a key that still holds the role', () => {
    expect(creatorRefusal(allowed)).toBeUndefined();
    expect(creatorRefusal({ ...allowed, role: 'admin', key: null })).toBeUndefined();
  });

  it('stops a disabled person, a revoked or lowered key, a person made viewer, a device left the key groups', () => {
    expect(creatorRefusal({ ...allowed, disabled: true })).toMatch(/ops@example.com is disabled/);
    expect(creatorRefusal({ ...allowed, key: { ...allowed.key!, revoked: true } })).toMatch(/revoked/);
    expect(creatorRefusal({ ...allowed, key: { ...allowed.key!, role: 'viewer' } })).toMatch(
      /key .* no longer holds the operator role/,
    );
    expect(creatorRefusal({ ...allowed, role: 'viewer' })).toMatch(/no longer an operator/);
    expect(creatorRefusal({ ...allowed, key: { ...allowed.key!, deviceInGroups: false } })).toMatch(
      /no longer in the groups/,
    );
  });
});
