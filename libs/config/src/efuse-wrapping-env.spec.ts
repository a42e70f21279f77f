import { ConfigError } from './load-config';
import { resolveEfuseWrappingKeys } from './efuse-wrapping-env';

describe('the eFuse wrapping keys', () => {
  it('refuse a production start without one', () => {
    expect(() => resolveEfuseWrappingKeys([], 'production')).toThrow(ConfigError);
  });

  it('read 32-byte keys as hex or base64, newest first, and refuse any other length', () => {
    const hex = 'ab'.repeat(32);
    const base64 = Buffer.alloc(32, 1).toString('base64');
    expect(resolveEfuseWrappingKeys([hex, base64], 'production')).toEqual([
      Buffer.from(hex, 'hex'),
      Buffer.alloc(32, 1),
    ]);
    expect(() => resolveEfuseWrappingKeys(['too-short'], 'production')).toThrow(/EFUSE_WRAPPING_KEYS/);
  });
});
