import { sealMismatches, type SealedFields } from './seal-check';

const call: SealedFields = {
  callId: 'c1',
  deviceId: 'd1',
  verdict: 'device_error',
  reason: 'the device reported an error',
  sealedAt: '2026-12-01T10:00:00.123Z',
};
const seal = {
  deviceId: 'd1',
  payload: {
    verdict: 'device_error',
    reason: 'the device reported an error',
    sealedAt: '2026-12-01T10:00:00.123Z',
  },
};

describe('a call and its seal', () => {
  it('agree when the row says what the seal says', () => {
    expect(sealMismatches(call, seal)).toEqual([]);
    expect(sealMismatches({ ...call, verdict: null, reason: null, sealedAt: null }, undefined)).toEqual([]);
  });

  it('name each field the call row changed after sealing', () => {
    const forged = { ...call, verdict: 'verified', sealedAt: '2026-12-01T10:00:01.000Z' };
    expect(sealMismatches(forged, seal)).toEqual([
      expect.objectContaining({ callId: 'c1', field: 'verdict', call: 'verified', seal: 'device_error' }),
      expect.objectContaining({ field: 'sealedAt', call: '2026-12-01T10:00:01.000Z' }),
    ]);
  });

  it('name a sealed call without a seal, and a seal whose call was unsealed', () => {
    expect(sealMismatches(call, undefined)).toEqual([expect.objectContaining({ field: 'seal' })]);
    expect(sealMismatches({ ...call, verdict: null }, seal)).toEqual([
      expect.objectContaining({ field: 'verdict', call: null, seal: 'device_error' }),
    ]);
  });

  it('name a seal that cannot be read or sits in another chain', () => {
    expect(sealMismatches(call, { deviceId: 'd1', payload: { verdict: 'maybe' } })).toEqual([
      expect.objectContaining({ field: 'seal' }),
    ]);
    expect(sealMismatches(call, { ...seal, deviceId: 'd2' })).toEqual([
      expect.objectContaining({ field: 'deviceId', seal: 'd2' }),
    ]);
  });
});
