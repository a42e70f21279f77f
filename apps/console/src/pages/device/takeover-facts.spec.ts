import type { Takeover } from '@fleet/api-contract';
import { foughtOver, takeoverAddresses, takeoverMarks } from './takeover-facts';

const takeover = (over: Partial<Takeover>): Takeover => ({
  at: '2026-12-06T10:00:00.000Z',
  displacedAddress: '10.0.0.7',
  displacedClientIdFingerprint: 'abababab',
  byAddress: '10.0.0.7',
  byClientIdFingerprint: 'abababab',
  ...over,
});

describe('takeovers on the device page', () => {
  it('marks a takeover from another address, or with another Client-Id, and nothing else', () => {
    expect(takeoverMarks(takeover({}))).toEqual({ otherAddress: false, otherClientId: false });
    expect(takeoverMarks(takeover({ byAddress: '203.0.113.9' }))).toEqual({
      otherAddress: true,
      otherClientId: false,
    });
    expect(takeoverMarks(takeover({ byClientIdFingerprint: 'cdcdcdcd' }))).toMatchObject({
      otherClientId: true,
    });
    // The connection that took over never came online: nothing to compare.
    expect(takeoverMarks(takeover({ byAddress: null, byClientIdFingerprint: null }))).toEqual({
      otherAddress: false,
      otherClientId: false,
    });
  });

  it('calls a device fought over past the alert’s number of takeovers an hour', () => {
    expect(foughtOver({ lastHour: 5, lastDay: 40, recent: [] })).toBe(false);
    expect(foughtOver({ lastHour: 6, lastDay: 6, recent: [] })).toBe(true);
  });

  it('lists the addresses involved once each', () => {
    expect(
      takeoverAddresses([
        takeover({ byAddress: '203.0.113.9' }),
        takeover({ displacedAddress: '203.0.113.9', byAddress: '10.0.0.7' }),
        takeover({ byAddress: null }),
      ]),
    ).toEqual(['10.0.0.7', '203.0.113.9']);
  });
});
