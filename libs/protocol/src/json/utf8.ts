const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();

/** std::string::length(): what the firmware measures is bytes of UTF-8, not JavaScript string units. */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function decodeUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}
