import { can, roleAllows } from './roles';

describe('what a role may do in the console', () => {
  it('ranks viewer below operator below admin', () => {
    expect(roleAllows('admin', 'operator')).toBe(true);
    expect(roleAllows('operator', 'operator')).toBe(true);
    expect(roleAllows('viewer', 'operator')).toBe(false);
  });

  it('lets an operator call, approve and steer campaigns, and a viewer only read', () => {
    for (const action of ['call.create', 'approval.decide', 'campaign.create', 'campaign.steer'] as const) {
      expect(can('operator', action)).toBe(true);
      expect(can('viewer', action)).toBe(false);
    }
  });

  it('lets only an admin create API keys', () => {
    expect(can('admin', 'key.create')).toBe(true);
    expect(can('operator', 'key.create')).toBe(false);
  });
});
