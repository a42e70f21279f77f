import {
  compareFirmwareVersions,
  isNewerFirmware,
  isSafeFirmwareVersion,
  parseFirmwareVersion,
} from './firmware-version';

describe('firmware versions as the device compares them', () => {
  it('compares numerically per segment, more segments being newer', () => {
    expect(isNewerFirmware('2.4.2', '2.4.3')).toEqual({ ok: true, value: true });
    expect(isNewerFirmware('2.4.2', '2.10.0')).toEqual({ ok: true, value: true });
    expect(isNewerFirmware('2.4.2', '2.4.2')).toEqual({ ok: true, value: false });
    expect(isNewerFirmware('2.4', '2.4.0')).toEqual({ ok: true, value: true });
    expect(isNewerFirmware('2.4.0', '2.4')).toEqual({ ok: true, value: false });
    expect(compareFirmwareVersions('1.9', '1.10')).toBe(-1);
  });

  it('reads a suffix after digits the way std::stoi does', () => {
    expect(parseFirmwareVersion('3-rc1.2')).toEqual({ ok: true, value: [3, 2] });
    expect(parseFirmwareVersion(' 2.+4.')).toEqual({ ok: true, value: [2, 4] });
    expect(parseFirmwareVersion('')).toEqual({ ok: true, value: [] });
  });

  it.each(['2.4.beta', 'v2.4.2', '2..4', '.2', '2.4.99999999999'])(
    'says %j would crash the device',
    (version) => {
      expect(parseFirmwareVersion(version)).toMatchObject({
        ok: false,
        error: { kind: 'would_crash_device' },
      });
      expect(isSafeFirmwareVersion(version)).toBe(false);
    },
  );

  it('offers only dotted integers', () => {
    expect(['2.4.3', '10', '1.0.0.0'].every(isSafeFirmwareVersion)).toBe(true);
    expect(['3-rc1', '2.4.', '', ' 2.4'].some(isSafeFirmwareVersion)).toBe(false);
  });
});
