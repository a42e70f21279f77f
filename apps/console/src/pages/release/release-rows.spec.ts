import type { ReleaseHealthView } from '@fleet/api-contract';
import { releaseRows } from './release-rows';

const health = (version: string, over: Partial<ReleaseHealthView['release']> = {}) => ({
  version,
  devices: 6,
  deviceHours: 30,
  upgrades: {
    attempted: 6,
    verified: 6,
    effectMismatch: 0,
    failed: 0,
    regressions: 1,
    effectMismatchShare: 0,
    regressionShare: 1 / 6,
  },
  reconnectsPerDeviceHour: 0.25,
  offlineShare: 0.015,
  deviceErrorShare: null,
  noResponseShare: 0,
  calls: 0,
  ...over,
});

const view: ReleaseHealthView = {
  firmwareId: '00000000-0000-4000-8000-000000000001',
  window: { since: '2026-12-06T00:00:00Z', until: '2026-12-07T00:00:00Z', regressionWithinHours: 24 },
  boards: ['b1'],
  release: health('9.1.0'),
  baseline: health('9.0.0', { upgrades: null, reconnectsPerDeviceHour: 0.1 }),
  status: 'degraded',
  findings: [
    { signal: 'regressions', value: 1, baseline: null, detail: '1 verified upgrade(s) later came back' },
  ],
};

describe('the release page table', () => {
  it('shows each signal of the release beside the version it replaced, flagging what the judgement found', () => {
    const rows = releaseRows(view);
    expect(rows.find((r) => r.signal === 'regressions')).toEqual({
      signal: 'regressions',
      release: '1',
      baseline: '—',
      flagged: true,
    });
    expect(rows.find((r) => r.signal === 'reconnects_per_device_hour')).toMatchObject({
      release: '0.25',
      baseline: '0.10',
      flagged: false,
    });
    expect(rows.find((r) => r.signal === 'offline_share')?.release).toBe('1.5 %');
    expect(rows.find((r) => r.signal === 'upgrades')?.release).toBe('6 / 6');
    expect(rows.find((r) => r.signal === 'device_error_share')?.release).toBe('—');
  });

  it('shows dashes for the baseline when the release replaced nothing seen', () => {
    expect(releaseRows({ ...view, baseline: null }).every((r) => r.baseline === '—')).toBe(true);
  });
});
