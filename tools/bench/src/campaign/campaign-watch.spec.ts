import { steadyPerMinute, type ProgressPoint } from './campaign-watch';

const at = (seconds: number, verified: number): ProgressPoint => ({
  at: seconds,
  verified,
  failed: 0,
  inProgress: 0,
});

describe('the steady pace of a campaign', () => {
  it('is measured between 10 % and 90 % of the fleet verified, leaving out the ramp-up and the stragglers', () => {
    // 1,000 devices: a slow first batch, then 100 devices every 6 s, then a long tail.
    const timeline = [at(0, 0), at(30, 50), at(36, 100), at(84, 900), at(200, 1000)];
    expect(steadyPerMinute(timeline, 1000)).toBeCloseTo(1000); // 800 devices in 48 s
  });

  it('is unknown when the campaign never got to 90 %', () => {
    expect(steadyPerMinute([at(0, 0), at(10, 200), at(20, 500)], 1000)).toBeUndefined();
  });
});
