import type { ProtocolError } from '../result';

/** Every check an image can fail, in the order they run; each names what the device would have done. */
export const ESP_IMAGE_CHECKS = [
  'length',
  'magic',
  'chip_id',
  'segment_count',
  'segment_bounds',
  'segment_length',
  'app_descriptor',
  'checksum',
  'sha256',
] as const;
export type EspImageCheck = (typeof ESP_IMAGE_CHECKS)[number];

/** A refused image: which check failed, what the bootloader expects and what the bytes hold. */
export interface EspImageFailure extends ProtocolError<EspImageCheck> {
  readonly expected: string;
  readonly found: string;
}

export function failure(
  kind: EspImageCheck,
  expected: string,
  found: string,
  message: string,
): EspImageFailure {
  return { kind, expected, found, message };
}

export const hexByte = (byte: number): string => `0x${byte.toString(16).padStart(2, '0')}`;
