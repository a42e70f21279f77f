import { parseLauncherArgs } from './launcher-args';

describe('npm start arguments', () => {
  it('takes --demo N and refuses what it does not know', () => {
    expect(parseLauncherArgs([])).toEqual({ demoDevices: 0 });
    expect(parseLauncherArgs(['--demo', '5'])).toEqual({ demoDevices: 5 });
    expect(() => parseLauncherArgs(['--demo', 'many'])).toThrow(/--demo takes a number/);
    expect(() => parseLauncherArgs(['--devices', '5'])).toThrow();
  });
});
