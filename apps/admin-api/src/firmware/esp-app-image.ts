import { verifyEspImage, type EspImage, type EspImageFailure } from '@fleet/protocol';

export type { EspImage } from '@fleet/protocol';

export type ParseResult =
  { ok: true; image: EspImage } | { ok: false; reason: string; failure: EspImageFailure };

/** The registry's reading of an upload: the bootloader's own checks (libs/protocol esp-image), as a reason. */
export function parseEspAppImage(data: Buffer): ParseResult {
  const verified = verifyEspImage(data);
  return verified.ok
    ? { ok: true, image: verified.value }
    : { ok: false, reason: verified.error.message, failure: verified.error };
}
