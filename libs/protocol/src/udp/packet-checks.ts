import { err, ok, type ProtocolError, type Result } from '../result';
import { AUDIO_HEADER_BYTES, AUDIO_PACKET_TYPE, decodeAudioHeader, type AudioHeader } from './header';

export type DownlinkRejection = 'too_short' | 'wrong_type' | 'length_mismatch' | 'stale_sequence';

export interface AcceptedPacket {
  readonly header: AudioHeader;
  /** Still encrypted. */
  readonly payload: Uint8Array;
  /** Packets missing between the last accepted one and this one; the device only logs a warning for it. */
  readonly gap: number;
}

/**
 * xiaozhi §1.6, the device's downlink checks in its order: at least 16 bytes, byte 0 is 0x01,
 * the length is exactly 16 + payload_len, and the sequence is above the last one accepted. Decryption comes after.
 */
export function checkDownlinkPacket(
  packet: Uint8Array,
  lastRemoteSequence: number,
): Result<AcceptedPacket, ProtocolError<DownlinkRejection>> {
  const decoded = decodeAudioHeader(packet);
  if (!decoded.ok) return decoded;
  const header = decoded.value;
  if (header.type !== AUDIO_PACKET_TYPE) {
    return err({ kind: 'wrong_type', message: `type byte ${header.type}, expected 1` });
  }
  if (packet.length !== AUDIO_HEADER_BYTES + header.payloadLength) {
    return err({
      kind: 'length_mismatch',
      message: `${packet.length} bytes for payload_len ${header.payloadLength}`,
    });
  }
  if (header.sequence <= lastRemoteSequence) {
    return err({
      kind: 'stale_sequence',
      message: `sequence ${header.sequence} is not above ${lastRemoteSequence}`,
    });
  }
  return ok({
    header,
    payload: packet.subarray(AUDIO_HEADER_BYTES),
    gap: header.sequence - lastRemoteSequence - 1,
  });
}

export type UplinkRejection =
  'too_short' | 'wrong_type' | 'length_mismatch' | 'stale_sequence' | 'sequence_jump';

/**
 * What the gateway accepts from a device: type 1, a length that matches (a truncated datagram would decrypt into
 * garbage), and a sequence not below the last one (the gateway drops only those below). The caller looks the
 * session up by `header.ssrc` first.
 *
 * `maxAdvance` bounds how far ahead of `lastSequence` a packet may be. The device counts up by one per packet
 * from 1 after each hello (xiaozhi §1.6), so only lost packets make a gap; a packet far ahead is someone else's,
 * and accepting it would make every real packet after it look stale.
 */
export function checkUplinkPacket(
  packet: Uint8Array,
  lastSequence: number,
  maxAdvance = Number.POSITIVE_INFINITY,
): Result<AcceptedPacket, ProtocolError<UplinkRejection>> {
  const decoded = decodeAudioHeader(packet);
  if (!decoded.ok) return decoded;
  const header = decoded.value;
  if (header.type !== AUDIO_PACKET_TYPE) {
    return err({ kind: 'wrong_type', message: `type byte ${header.type}, expected 1` });
  }
  if (packet.length !== AUDIO_HEADER_BYTES + header.payloadLength) {
    return err({
      kind: 'length_mismatch',
      message: `${packet.length} bytes for payload_len ${header.payloadLength}`,
    });
  }
  if (header.sequence < lastSequence) {
    return err({ kind: 'stale_sequence', message: `sequence ${header.sequence} is below ${lastSequence}` });
  }
  if (header.sequence - lastSequence > maxAdvance) {
    return err({
      kind: 'sequence_jump',
      message: `sequence ${header.sequence} is more than ${maxAdvance} ahead of ${lastSequence}`,
    });
  }
  return ok({
    header,
    payload: packet.subarray(AUDIO_HEADER_BYTES),
    gap: Math.max(0, header.sequence - lastSequence - 1),
  });
}
