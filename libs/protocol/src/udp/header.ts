import { err, ok, type ProtocolError, type Result } from '../result';

/** xiaozhi §1.6: type u8 = 1, flags u8, payload_len u16, ssrc u32, timestamp u32, sequence u32, all big-endian. */
export const AUDIO_HEADER_BYTES = 16;
export const AUDIO_PACKET_TYPE = 0x01;

export interface AudioHeader {
  readonly type: number;
  readonly flags: number;
  readonly payloadLength: number;
  readonly ssrc: number;
  readonly timestamp: number;
  readonly sequence: number;
}

export function encodeAudioHeader(header: AudioHeader): Uint8Array {
  const bytes = new Uint8Array(AUDIO_HEADER_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, header.type);
  view.setUint8(1, header.flags);
  view.setUint16(2, header.payloadLength);
  view.setUint32(4, header.ssrc);
  view.setUint32(8, header.timestamp);
  view.setUint32(12, header.sequence);
  return bytes;
}

export function decodeAudioHeader(bytes: Uint8Array): Result<AudioHeader, ProtocolError<'too_short'>> {
  if (bytes.length < AUDIO_HEADER_BYTES) {
    return err({ kind: 'too_short', message: `${bytes.length} bytes, a header needs ${AUDIO_HEADER_BYTES}` });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, AUDIO_HEADER_BYTES);
  return ok({
    type: view.getUint8(0),
    flags: view.getUint8(1),
    payloadLength: view.getUint16(2),
    ssrc: view.getUint32(4),
    timestamp: view.getUint32(8),
    sequence: view.getUint32(12),
  });
}

/** Header followed by the (already encrypted) payload; payload_len is taken from the payload. */
export function encodeAudioPacket(
  header: Omit<AudioHeader, 'payloadLength'>,
  payload: Uint8Array,
): Uint8Array {
  const packet = new Uint8Array(AUDIO_HEADER_BYTES + payload.length);
  packet.set(encodeAudioHeader({ ...header, payloadLength: payload.length }), 0);
  packet.set(payload, AUDIO_HEADER_BYTES);
  return packet;
}
