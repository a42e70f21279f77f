import {
  APP_DESC_MAGIC,
  APP_DESC_OFFSET,
  appImageDefaults,
  buildAppImage,
  compileTimeOf,
  parseAppImage,
} from './app-image';

describe('the ESP app image descriptor', () => {
  it('round-trips through the real layout: magic 0xE9, esp_app_desc_t at offset 32', () => {
    const image = buildAppImage({
      version: '2.5.0',
      projectName: 'xiaozhi',
      date: 'Jan  2 2027',
      time: '01:02:03',
    });
    expect(image[0]).toBe(0xe9);
    expect(image.readUInt32LE(APP_DESC_OFFSET)).toBe(APP_DESC_MAGIC);
    const parsed = parseAppImage(image);
    expect(parsed).toMatchObject({
      ok: true,
      image: {
        version: '2.5.0',
        projectName: 'xiaozhi',
        date: 'Jan  2 2027',
        time: '01:02:03',
        idfVersion: 'v5.5.2',
      },
    });
    if (parsed.ok) expect(parsed.image.elfSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads a version that fills its 32 bytes without a terminator', () => {
    const version = '1.2.3'.padEnd(32, '9');
    expect(parseAppImage(buildAppImage({ version }))).toMatchObject({ ok: true, image: { version } });
  });

  it.each([
    ['too short', Buffer.alloc(100), 'too_short'],
    ['without the descriptor magic', Buffer.alloc(4096), 'bad_magic'],
    ['with an empty version', buildAppImage({ version: '' }), 'empty_version'],
  ])('refuses an image %s', (_case, bytes, error) => {
    expect(parseAppImage(bytes)).toEqual({ ok: false, error });
  });

  it('writes compile_time as __DATE__ "T" __TIME__ "Z"', () => {
    expect(compileTimeOf(appImageDefaults({ version: '1', date: 'Aug  8 2026', time: '08:33:45' }))).toBe(
      'Aug  8 2026T08:33:45Z',
    );
  });
});
