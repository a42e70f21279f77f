import type { Preview } from '../../api/types';
import { fleetCounts } from './fleet-counts';
import { addCall, emptyBuckets, roll } from './verdict-timeline';

const preview = (p: Partial<Preview>): Preview => ({
  matched: 0,
  online: 0,
  byBoard: [],
  byFirmware: [],
  sample: [],
  ...p,
});

describe('the fleet overview', () => {
  it('adds the online and offline halves up by board and firmware, largest first', () => {
    const counts = fleetCounts(
      preview({
        matched: 3,
        byBoard: [{ board: 'bread', devices: 3 }],
        byFirmware: [{ firmware: '2.0', devices: 3 }],
      }),
      preview({
        matched: 5,
        byBoard: [
          { board: 'bread', devices: 1 },
          { board: null, devices: 4 },
        ],
        byFirmware: [{ firmware: '1.0', devices: 5 }],
      }),
      'unknown',
    );
    expect(counts).toEqual({
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
