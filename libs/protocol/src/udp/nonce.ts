import { err, ok, type ProtocolError, type Result } from '../result';
import { AUDIO_HEADER_BYTES, encodeAudioHeader } from './header';

/** xiaozhi §1.4: the gateway's nonce is a header `01 00 0000 <connId:4> 00000000 00000000`. */
export function buildSessionNonce(connectionId: number): Uint8Array {
  return encodeAudioHeader({
    type: 1,
    flags: 0,
    payloadLength: 0,
    ssrc: connectionId >>> 0,
    timestamp: 0,
    sequence: 0,
  });
}

/**
 * xiaozhi §1.6, device uplink: the nonce bytes with payload_len, timestamp and sequence overwritten;
 * bytes 0, 1 and 4..7 (type, flags, ssrc) come from the nonce as they are.
 */
export function deviceUplinkHeader(
  nonce: Uint8Array,
  payloadLength: number,
  timestamp: number,
  sequence: number,
): Uint8Array {
  const header = new Uint8Array(nonce.subarray(0, AUDIO_HEADER_BYTES));
  const view = new DataView(header.buffer);
  view.setUint16(2, payloadLength);
  view.setUint32(8, timestamp);
  view.setUint32(12, sequence);
  return header;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** Hex of exactly 16 bytes, either case (what the device accepts for the hello key and nonce). */
export function fromHex16(hex: string): Result<Uint8Array, ProtocolError<'invalid_hex'>> {
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) {
    return err({ kind: 'invalid_hex', message: 'expected 32 hex digits (16 bytes)' });
  }
  return ok(new Uint8Array(Buffer.from(hex, 'hex')));
}
