import type { FleetSummary } from '@fleet/api-contract';
import { fleetCounts } from './fleet-counts';
import { addCall, emptyBuckets, roll } from './verdict-timeline';

describe('the fleet overview', () => {
  it('draws the fleet summary as bars, largest first, with an unknown board or firmware named', () => {
    const summary: FleetSummary = {
      at: '2026-12-01T10:00:00Z',
      devices: { total: 8, online: 3, offline: 5 },
      byBoard: [
        { board: 'bread', online: 3, offline: 1 },
        { board: null, online: 0, offline: 4 },
      ],
      byFirmware: [
        { firmware: '2.0', online: 3, offline: 0 },
        { firmware: '1.0', online: 0, offline: 5 },
      ],
      byDialect: [{ dialect: 'xiaozhi', online: 3, offline: 5 }],
      calls: { from: '2026-12-01T09:00:00Z', to: '2026-12-01T10:00:00Z', byVerdict: {}, buckets: [] },
    };
    expect(fleetCounts(summary, 'unknown')).toEqual({
      online: 3,
      offline: 5,
      byBoard: [
        { label: 'bread', value: 4 },
        { label: 'unknown', value: 4 },
      ],
      byFirmware: [
        { label: '1.0', value: 5 },
        { label: '2.0', value: 3 },
      ],
      byDialect: [{ label: 'xiaozhi', value: 8 }],
    });
  });

  it('counts live verdicts into their five-minute interval and rolls the window on', () => {
    const size = 5 * 60_000;
    const now = Date.parse('2026-11-30T10:12:00Z');
    let buckets = emptyBuckets(now, size, 3);
    expect(buckets.map((b) => new Date(b.start).toISOString())).toEqual([
      '2026-11-30T10:00:00.000Z',
      '2026-11-30T10:05:00.000Z',
      '2026-11-30T10:10:00.000Z',
    ]);
    buckets = addCall(buckets, size, Date.parse('2026-11-30T10:11:00Z'), 'verified');
    buckets = addCall(buckets, size, Date.parse('2026-11-30T10:11:30Z'), 'verified');
    buckets = addCall(buckets, size, Date.parse('2026-11-30T09:00:00Z'), 'verified'); // outside: not counted
    expect(buckets[2]!.counts).toEqual({ verified: 2 });
    buckets = roll(buckets, Date.parse('2026-11-30T10:16:00Z'), size);
    expect(buckets.map((b) => b.counts)).toEqual([{}, { verified: 2 }, {}]);
  });
});
