import { createHash } from 'node:crypto';
import { buildEspImage as buildImage } from '@fleet/protocol';

/**
 * A synthetic ESP-IDF application image for the registry's tests: the real layout with a correct checksum and
 * appended SHA-256 (libs/protocol buildEspImage), so only what a test breaks on purpose is wrong.
 */
export function buildEspImage(
  opts: {
    version?: string;
    project?: string;
    chipId?: number;
    magic?: number;
    descMagic?: number;
    size?: number;
    flashSize?: number;
    hashAppended?: boolean;
  } = {},
): Buffer {
  return buildImage({
    version: opts.version ?? '1.7.2',
    projectName: opts.project ?? 'xiaozhi',
    compileTime: '12:00:00',
    compileDate: 'Jan  1 2026',
    idfVersion: 'v5.4.1',
    elfSha256: createHash('sha256').update('elf').digest('hex'),
    chipId: opts.chipId ?? 9,
    segments: 3,
    size: opts.size ?? 4096,
    ...(opts.magic !== undefined ? { magic: opts.magic } : {}),
    ...(opts.descMagic !== undefined ? { descMagic: opts.descMagic } : {}),
    ...(opts.flashSize !== undefined ? { flashSize: opts.flashSize } : {}),
    ...(opts.hashAppended !== undefined ? { hashAppended: opts.hashAppended } : {}),
  });
}
