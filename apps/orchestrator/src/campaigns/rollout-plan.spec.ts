import { inMaintenanceWindow } from './maintenance-window';
import { devicesToStart, waveSize } from './rollout-plan';

describe('the rollout plan', () => {
  const rollout = { batchSize: 10, maxInFlight: 4 };

  it('starts a wave up to maxInFlight at a time, and the next wave only when this one has finished', () => {
    expect(devicesToStart(rollout, { started: 0, inProgress: 0, startedLastMinute: 0 })).toBe(4);
    expect(devicesToStart(rollout, { started: 4, inProgress: 2, startedLastMinute: 4 })).toBe(2);
    expect(devicesToStart(rollout, { started: 9, inProgress: 1, startedLastMinute: 9 })).toBe(1);
    expect(devicesToStart(rollout, { started: 10, inProgress: 1, startedLastMinute: 10 })).toBe(0);
    expect(devicesToStart(rollout, { started: 10, inProgress: 0, startedLastMinute: 10 })).toBe(4);
  });

  it('grows waves along the ramp and respects a rate', () => {
    const ramped = { batchSize: 40, maxInFlight: 100, ramp: { initialBatchSize: 5, factor: 2 } };
    expect([0, 1, 2, 3, 4].map((k) => waveSize(ramped, k))).toEqual([5, 10, 20, 40, 40]);
    expect(devicesToStart(ramped, { started: 5, inProgress: 0, startedLastMinute: 5 })).toBe(10);
    expect(
      devicesToStart({ ...rollout, ratePerMinute: 3 }, { started: 0, inProgress: 0, startedLastMinute: 1 }),
    ).toBe(2);
  });
});

describe('maintenance windows', () => {
  const monday2300utc = new Date('2026-11-30T23:00:00Z');

  it("are read in the device group's time zone, past midnight included", () => {
    const nights = [{ days: ['mon' as const], start: '22:00', end: '06:00' }];
    expect(inMaintenanceWindow(nights, 'UTC', monday2300utc)).toBe(true);
    // 23:00 UTC is 07:00 on Tuesday in Shanghai: outside Monday's night window.
    expect(inMaintenanceWindow(nights, 'Asia/Shanghai', monday2300utc)).toBe(false);
    expect(inMaintenanceWindow(nights, 'UTC', new Date('2026-12-01T05:59:00Z'))).toBe(true);
    expect(inMaintenanceWindow([], 'UTC', monday2300utc)).toBe(true);
  });
});
