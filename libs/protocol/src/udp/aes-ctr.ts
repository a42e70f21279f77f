import { createCipheriv } from 'node:crypto';
import { err, ok, type ProtocolError, type Result } from '../result';
import { AUDIO_HEADER_BYTES, encodeAudioHeader, type AudioHeader } from './header';

const BLOCK = 16;
const UINT32_MAX = 0xffffffff;

/**
 * xiaozhi §1.6: AES-128-CTR with the hello key, the whole 16-byte header as the initial counter block, standard
 * 128-bit big-endian increment (Node's aes-128-ctr). Encryption and decryption are the same operation. No MAC.
 */
export function aesCtr(key: Uint8Array, counterBlock: Uint8Array, data: Uint8Array): Uint8Array {
  const cipher = createCipheriv('aes-128-ctr', key, counterBlock);
  return new Uint8Array(Buffer.concat([cipher.update(data), cipher.final()]));
}

/** Encrypts one Opus frame and prepends its header, which doubles as the counter block. */
export function sealAudioPacket(
  key: Uint8Array,
  header: Omit<AudioHeader, 'payloadLength'>,
  opus: Uint8Array,
): Uint8Array {
  const head = encodeAudioHeader({ ...header, payloadLength: opus.length });
  const packet = new Uint8Array(AUDIO_HEADER_BYTES + opus.length);
  packet.set(head, 0);
  packet.set(aesCtr(key, head, opus), AUDIO_HEADER_BYTES);
  return packet;
}

/** Decrypts the payload of a packet that already passed its checks. */
export function openAudioPacket(key: Uint8Array, packet: Uint8Array): Uint8Array {
  return aesCtr(key, packet.subarray(0, AUDIO_HEADER_BYTES), packet.subarray(AUDIO_HEADER_BYTES));
}

/** How many counter blocks (keystream blocks) a payload of this many bytes consumes. */
export function counterBlocksFor(payloadLength: number): number {
  return Math.ceil(payloadLength / BLOCK);
}

/**
 * The downlink sequence to use after a packet with this sequence and payload length: stepping by the blocks it
 * consumed (at least one) means the next packet's counter blocks start past the last one used, so no keystream is
 * ever reused with the same key. Refused when the 32-bit sequence would wrap: the session needs a new hello.
 */
export function nextDownlinkSequence(
  sequence: number,
  payloadLength: number,
): Result<number, ProtocolError<'sequence_exhausted'>> {
  const next = sequence + Math.max(1, counterBlocksFor(payloadLength));
  if (next > UINT32_MAX) {
    return err({ kind: 'sequence_exhausted', message: `sequence ${next} does not fit 32 bits` });
  }
  return ok(next);
}
