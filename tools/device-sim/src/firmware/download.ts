import { verifyEspImage } from '@fleet/protocol';
import { openHttp, readBody } from '../util/http';
import { parseAppImage, type AppImage } from './app-image';
import { APP_SLOT_BYTES } from './flash-slots';

export type DownloadResult = { ok: true; image: AppImage; bytes: number } | { ok: false; reason: string };

/**
 * Ota::StartUpgradeFromUrl: GET the image; anything but 200 with a Content-Length fails (a chunked answer has
 * none), as does an image larger than the app slot, one esp_ota_end refuses (esp_image_verify: segments,
 * checksum, appended SHA-256, a chip other than this one) or one whose `esp_app_desc_t` cannot be read.
 */
export async function downloadFirmware(
  url: string,
  timeoutMs: number,
  signal: AbortSignal,
  chip: string,
): Promise<DownloadResult> {
  let res;
  try {
    res = await openHttp({ method: 'GET', url, timeoutMs, signal });
  } catch (err) {
    return { ok: false, reason: `cannot open ${url}: ${(err as Error).message}` };
  }
  const length = Number(res.headers['content-length']);
  if (
    res.statusCode !== 200 ||
    res.headers['content-length'] === undefined ||
    !Number.isFinite(length) ||
    length <= 0
  ) {
    res.destroy();
    return res.statusCode !== 200
      ? { ok: false, reason: `HTTP ${res.statusCode ?? 0}` }
      : { ok: false, reason: 'no Content-Length' };
  }
  if (length > APP_SLOT_BYTES) {
    res.destroy();
    return { ok: false, reason: `image of ${length} bytes does not fit the ${APP_SLOT_BYTES}-byte slot` };
  }
  let bytes: Buffer;
  try {
    bytes = await readBody(res, length);
  } catch (err) {
    return { ok: false, reason: `download failed: ${(err as Error).message}` };
  }
  if (bytes.length !== length) return { ok: false, reason: `got ${bytes.length} of ${length} bytes` };
  const verified = verifyEspImage(bytes);
  if (!verified.ok) return { ok: false, reason: `esp_ota_end: ${verified.error.message}` };
  if (verified.value.chip !== chip) {
    return {
      ok: false,
      reason: `esp_ota_end: the image is for ${verified.value.chip}, this chip is ${chip}`,
    };
  }
  const parsed = parseAppImage(bytes);
  if (!parsed.ok) return { ok: false, reason: `not an app image (${parsed.error})` };
  return { ok: true, image: parsed.image, bytes: length };
}
