import { createHash } from 'node:crypto';
import { buildEspImage, resealEspImage } from './build-esp-image';
import { IMAGE_HEADER_SIZE, SEGMENT_HEADER_SIZE } from './esp-image-format';
import { verifyEspImage } from './verify-esp-image';

const image = (spec: Partial<Parameters<typeof buildEspImage>[0]> = {}) =>
  buildEspImage({ version: '2.5.0', ...spec });

/** Where the checksum byte sits: the last byte before the appended hash. */
const checksumOffset = (bytes: Buffer) => bytes.length - 32 - 1;

describe('verifying an ESP app image as the bootloader does', () => {
  it('accepts a built image and reads its header, segments, flash settings and descriptor', () => {
    const bytes = image({ chipId: 5, flashSize: 4, flashMode: 0, segments: 4 });
    const result = verifyEspImage(bytes);
    expect(result).toMatchObject({
      ok: true,
      value: {
        chip: 'esp32c3',
        chipId: 5,
        segmentCount: 4,
        flash: { mode: 'qio', sizeBytes: 16 * 1024 * 1024, freqCode: 0xf },
        hashAppended: true,
        imageLength: bytes.length,
        version: '2.5.0',
        projectName: 'xiaozhi',
        idfVersion: 'v5.5.2',
        elfSha256: createHash('sha256').update('xiaozhi 2.5.0').digest('hex'),
      },
    });
    expect(bytes.length % 16).toBe(0);
  });

  it('accepts an image without an appended hash when the header says there is none', () => {
    const bytes = image({ hashAppended: false });
    expect(verifyEspImage(bytes)).toMatchObject({ ok: true, value: { hashAppended: false } });
  });

  it('refuses a flipped byte in a code segment by the checksum, saying what it computed and found', () => {
    const bytes = image({ hashAppended: false });
    bytes[IMAGE_HEADER_SIZE + SEGMENT_HEADER_SIZE + 256 + SEGMENT_HEADER_SIZE + 10]! ^= 0x01;
    const stored = bytes[bytes.length - 1]!;
    expect(verifyEspImage(bytes)).toEqual({
      ok: false,
      error: expect.objectContaining({
        kind: 'checksum',
        expected: `0x${(stored ^ 0x01).toString(16).padStart(2, '0')}`,
        found: `0x${stored.toString(16).padStart(2, '0')}`,
      }),
    });
  });

  it('refuses an image whose checksum byte itself is wrong', () => {
    const bytes = image();
    bytes[checksumOffset(bytes)]! ^= 0xff;
    expect(verifyEspImage(bytes)).toMatchObject({ ok: false, error: { kind: 'checksum' } });
  });

  it('refuses an image whose appended SHA-256 does not match, with both digests', () => {
    const bytes = image();
    bytes[bytes.length - 1]! ^= 0x80;
    const computed = createHash('sha256')
      .update(bytes.subarray(0, bytes.length - 32))
      .digest('hex');
    expect(verifyEspImage(bytes)).toEqual({
      ok: false,
      error: expect.objectContaining({
        kind: 'sha256',
        expected: computed,
        found: bytes.subarray(bytes.length - 32).toString('hex'),
      }),
    });
  });

  it('refuses a change that keeps the checksum but not the hash (two bytes swapped in a segment)', () => {
    const bytes = image();
    const at = IMAGE_HEADER_SIZE + SEGMENT_HEADER_SIZE + 256 + SEGMENT_HEADER_SIZE;
    [bytes[at], bytes[at + 1]] = [bytes[at + 1]!, bytes[at]!];
    expect(verifyEspImage(bytes)).toMatchObject({ ok: false, error: { kind: 'sha256' } });
  });

  it('refuses a truncated image: a segment that runs past the end, a missing checksum, a missing hash', () => {
    const bytes = image({ size: 8192 });
    expect(verifyEspImage(bytes.subarray(0, 2000))).toMatchObject({
      ok: false,
      error: { kind: 'segment_bounds', found: '2000' },
    });
    expect(verifyEspImage(bytes.subarray(0, bytes.length - 40))).toMatchObject({
      ok: false,
      error: { kind: 'length', message: expect.stringMatching(/checksum/) },
    });
    expect(verifyEspImage(bytes.subarray(0, bytes.length - 8))).toMatchObject({
      ok: false,
      error: { kind: 'length', message: expect.stringMatching(/SHA-256/) },
    });
  });

  it('refuses a segment count the bootloader does not take and a segment length that is not whole words', () => {
    const none = image();
    none[1] = 0;
    expect(verifyEspImage(none)).toMatchObject({ ok: false, error: { kind: 'segment_count', found: '0' } });
    const many = image();
    many[1] = 17;
    expect(verifyEspImage(many)).toMatchObject({ ok: false, error: { kind: 'segment_count', found: '17' } });
    const odd = image();
    const second = IMAGE_HEADER_SIZE + SEGMENT_HEADER_SIZE + 256;
    odd.writeUInt32LE(odd.readUInt32LE(second + 4) - 2, second + 4);
    expect(verifyEspImage(odd)).toMatchObject({ ok: false, error: { kind: 'segment_length' } });
  });

  it('refuses a wrong magic byte, an unknown chip and a first segment without the app descriptor', () => {
    expect(verifyEspImage(image({ magic: 0xe8 }))).toMatchObject({
      ok: false,
      error: { kind: 'magic', expected: '0xe9', found: '0xe8' },
    });
    expect(verifyEspImage(image({ chipId: 0x42 }))).toMatchObject({
      ok: false,
      error: { kind: 'chip_id', found: '66' },
    });
    expect(verifyEspImage(image({ descMagic: 0x12345678 }))).toMatchObject({
      ok: false,
      error: { kind: 'app_descriptor', found: '0x12345678' },
    });
  });

  it('checks the descriptor where the bootloader finds it: a resealed image with a changed version still verifies', () => {
    const bytes = image();
    bytes.write('2.6.0', IMAGE_HEADER_SIZE + SEGMENT_HEADER_SIZE + 16, 'ascii');
    expect(verifyEspImage(bytes)).toMatchObject({ ok: false, error: { kind: 'checksum' } });
    expect(verifyEspImage(resealEspImage(bytes))).toMatchObject({ ok: true, value: { version: '2.6.0' } });
  });

  it('computes the same checksum whether or not the image sits word-aligned in memory', () => {
    const bytes = image({ size: 8192 });
    const unaligned = Buffer.concat([Buffer.alloc(1), bytes]).subarray(1);
    expect(unaligned.byteOffset % 4).not.toBe(0);
    expect(verifyEspImage(unaligned)).toMatchObject({
      ok: true,
      value: { checksum: bytes[bytes.length - 33] },
    });
    unaligned[5000]! ^= 0x10;
    expect(verifyEspImage(unaligned)).toMatchObject({ ok: false, error: { kind: 'checksum' } });
  });

  it('ignores bytes after the image, as the bootloader ignores the rest of the partition', () => {
    const bytes = Buffer.concat([image(), Buffer.alloc(100, 0xff)]);
    expect(verifyEspImage(bytes)).toMatchObject({ ok: true, value: { imageLength: bytes.length - 100 } });
  });
});
