import { matchRoute, paths } from './router';

describe("the console's routes", () => {
  it("opens one approval's own page, where an agent's client sends its user", () => {
    expect(matchRoute('/approvals/0b6f4a3e-8a59-4b8e-9d8e-3f1a2b3c4d5e')).toEqual({
      name: 'approval',
      id: '0b6f4a3e-8a59-4b8e-9d8e-3f1a2b3c4d5e',
    });
    expect(paths.approval('a/b')).toBe('/approvals/a%2Fb');
  });
  it('matches every page, decoding a MAC in the path', () => {
    expect(matchRoute('/')).toEqual({ name: 'overview' });
    expect(matchRoute('/devices')).toEqual({ name: 'devices' });
    expect(matchRoute(paths.registerDevice())).toEqual({ name: 'device_register' });
    expect(matchRoute(paths.device('a0:85:e3:f4:49:34'))).toEqual({
      name: 'device',
      id: 'a0:85:e3:f4:49:34',
    });
    expect(matchRoute('/calls/5e0f')).toEqual({ name: 'call', id: '5e0f' });
    expect(matchRoute('/campaigns/new')).toEqual({ name: 'campaign_new' });
    expect(matchRoute('/campaigns/abc')).toEqual({ name: 'campaign', id: 'abc' });
    expect(matchRoute('/releases/f1')).toEqual({ name: 'release', firmwareId: 'f1' });
    expect(matchRoute('/releases')).toEqual({ name: 'not_found' });
    expect(matchRoute('/audit/')).toEqual({ name: 'audit' });
    expect(matchRoute(paths.keys())).toEqual({ name: 'keys' });
    expect(matchRoute(paths.schedules())).toEqual({ name: 'schedules' });
    expect(matchRoute('/announcement-schedules/x')).toEqual({ name: 'not_found' });
  });

  it('knows a path it has no page for', () => {
    expect(matchRoute('/calls')).toEqual({ name: 'not_found' });
    expect(matchRoute('/devices/a/b')).toEqual({ name: 'not_found' });
    expect(matchRoute('/keys/x')).toEqual({ name: 'not_found' });
    expect(matchRoute('/nowhere')).toEqual({ name: 'not_found' });
  });
});
