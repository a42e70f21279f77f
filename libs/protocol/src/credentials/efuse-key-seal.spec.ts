import { randomBytes } from 'node:crypto';
import { openEfuseKey, sealEfuseKey, wrappingKeyOf } from './efuse-key-seal';

const wrapping = wrappingKeyOf(Buffer.alloc(32, 7));
const efuseKey = Buffer.alloc(32, 9);

describe('an eFuse key at rest', () => {
  it('opens under the wrapping key and serial it was sealed with', () => {
    const sealed = sealEfuseKey(wrapping, 'SN-0001', efuseKey, randomBytes(12));
    expect(sealed).toHaveLength(60);
    expect(sealed.includes(efuseKey)).toBe(false);
    expect(openEfuseKey(wrapping, 'SN-0001', sealed)).toEqual({ ok: true, value: efuseKey });
  });

  it('does not open under another serial, another wrapping key or with a changed byte', () => {
    const sealed = sealEfuseKey(wrapping, 'SN-0001', efuseKey, randomBytes(12));
    const changed = Buffer.from(sealed);
    changed[40] = changed[40]! ^ 1;
    const other = wrappingKeyOf(Buffer.alloc(32, 8));
    for (const [key, serial, bytes] of [
      [wrapping, 'SN-0002', sealed],
      [other, 'SN-0001', sealed],
      [wrapping, 'SN-0001', changed],
    ] as const) {
      expect(openEfuseKey(key, serial, bytes)).toMatchObject({ ok: false, error: { kind: 'not_authentic' } });
    }
    expect(other.id).not.toBe(wrapping.id);
  });
});
