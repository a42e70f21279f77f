import { createCipheriv } from 'node:crypto';
import { aesCtr, counterBlocksFor, nextDownlinkSequence, openAudioPacket, sealAudioPacket } from './aes-ctr';
import { decodeAudioHeader, encodeAudioHeader, encodeAudioPacket } from './header';
import { buildSessionNonce, deviceUplinkHeader, fromHex16, toHex } from './nonce';
import { checkDownlinkPacket, checkUplinkPacket } from './packet-checks';

const KEY = new Uint8Array(Buffer.from('00112233445566778899aabbccddeeff', 'hex'));
const header = { type: 1, flags: 0, ssrc: 0xabcdef01, timestamp: 60, sequence: 7 };

describe('the UDP audio header', () => {
  it('is 16 big-endian bytes: type, flags, payload_len, ssrc, timestamp, sequence', () => {
    const bytes = encodeAudioHeader({ ...header, payloadLength: 0x0102 });
    expect(toHex(bytes)).toBe('01000102abcdef010000003c00000007');
    expect(decodeAudioHeader(bytes)).toEqual({ ok: true, value: { ...header, payloadLength: 0x0102 } });
  });

  it('round-trips the largest field values', () => {
    const max = {
      type: 255,
      flags: 255,
      payloadLength: 65535,
      ssrc: 0xffffffff,
      timestamp: 0xffffffff,
      sequence: 0xffffffff,
    };
    expect(decodeAudioHeader(encodeAudioHeader(max))).toEqual({ ok: true, value: max });
  });

  it('builds the gateway nonce 01 00 0000 <connId> 00000000 00000000', () => {
    expect(toHex(buildSessionNonce(0xabcdef01))).toBe('01000000abcdef010000000000000000');
  });

  it('builds the device uplink header from the nonce with length, timestamp and sequence overwritten', () => {
    expect(toHex(deviceUplinkHeader(buildSessionNonce(0xabcdef01), 120, 0, 1))).toBe(
      '01000078abcdef010000000000000001',
    );
  });

  it('reads hex keys of exactly 16 bytes in either case', () => {
    expect(fromHex16('00112233445566778899AABBCCDDEEFF')).toEqual({ ok: true, value: KEY });
    expect(fromHex16('0011')).toMatchObject({ ok: false, error: { kind: 'invalid_hex' } });
  });
});

describe('the device downlink checks', () => {
  const packet = encodeAudioPacket(header, new Uint8Array(20));

  it('accept a well-formed packet above the last sequence and report the gap', () => {
    expect(checkDownlinkPacket(packet, 4)).toMatchObject({
      ok: true,
      value: { header: { sequence: 7, payloadLength: 20 }, gap: 2 },
    });
  });

  it.each([
    ['shorter than a header', packet.subarray(0, 15), 0, 'too_short'],
    ['not type 1', Uint8Array.from([2, ...packet.subarray(1)]), 0, 'wrong_type'],
    ['longer than its payload_len', Uint8Array.from([...packet, 0]), 0, 'length_mismatch'],
    ['shorter than its payload_len', packet.subarray(0, 30), 0, 'length_mismatch'],
    ['a repeated sequence', packet, 7, 'stale_sequence'],
    ['an older sequence', packet, 9, 'stale_sequence'],
  ])('drop a packet %s, in the device order', (_case, bytes, last, reason) => {
    expect(checkDownlinkPacket(bytes, last)).toMatchObject({ ok: false, error: { kind: reason } });
  });

  it('check the type before the length, as the device does', () => {
    expect(checkDownlinkPacket(Uint8Array.from([2, ...packet.subarray(1), 9]), 0)).toMatchObject({
      ok: false,
      error: { kind: 'wrong_type' },
    });
  });

  it('let the gateway accept an equal uplink sequence but not a lower one', () => {
    expect(checkUplinkPacket(packet, 7).ok).toBe(true);
    expect(checkUplinkPacket(packet, 8)).toMatchObject({ ok: false, error: { kind: 'stale_sequence' } });
  });

  it('refuse an uplink sequence further ahead than the window allows', () => {
    const far = encodeAudioPacket({ ...header, sequence: 0xfffffff0 }, new Uint8Array(4));
    expect(checkUplinkPacket(far, 1, 64)).toMatchObject({ ok: false, error: { kind: 'sequence_jump' } });
    const near = encodeAudioPacket({ ...header, sequence: 65 }, new Uint8Array(4));
    expect(checkUplinkPacket(near, 1, 64)).toMatchObject({ ok: true, value: { gap: 63 } });
  });
});

describe('AES-128-CTR with the header as counter block', () => {
  it('round-trips an Opus frame through seal and open', () => {
    const opus = new Uint8Array(Buffer.from('an opus frame of some sixty bytes, give or take a few bytes'));
    const sealed = sealAudioPacket(KEY, header, opus);
    expect(sealed.subarray(16)).not.toEqual(opus);
    const checked = checkDownlinkPacket(sealed, 0);
    expect(checked.ok).toBe(true);
    expect(openAudioPacket(KEY, sealed)).toEqual(opus);
  });

  it('uses the header as the first counter block and increments it as a 128-bit big-endian number', () => {
    const counter = encodeAudioHeader({ ...header, payloadLength: 32, sequence: 0xffffffff });
    const keystream = aesCtr(KEY, counter, new Uint8Array(32));
    const ecb = (block: Uint8Array) =>
      new Uint8Array(createCipheriv('aes-128-ecb', KEY, null).setAutoPadding(false).update(block));
    const second = encodeAudioHeader({
      ...header,
      payloadLength: 32,
      sequence: 0,
      timestamp: header.timestamp + 1,
    });
    expect(keystream.subarray(0, 16)).toEqual(ecb(counter));
    expect(keystream.subarray(16)).toEqual(ecb(second));
  });

  it('counts the counter blocks a payload consumes', () => {
    expect([0, 1, 16, 17, 120].map(counterBlocksFor)).toEqual([0, 1, 1, 2, 8]);
  });

  it('steps the downlink sequence past every block used, so keystream never repeats', () => {
    const step = nextDownlinkSequence(7, 120);
    expect(step).toEqual({ ok: true, value: 15 });
    const first = sealAudioPacket(KEY, header, new Uint8Array(120));
    const next = sealAudioPacket(KEY, { ...header, sequence: step.ok ? step.value : 0 }, new Uint8Array(120));
    const blocks = (p: Uint8Array) =>
      Array.from({ length: 8 }, (_, i) => toHex(p.subarray(16 + i * 16, 32 + i * 16)));
    expect(blocks(first).filter((b) => blocks(next).includes(b))).toEqual([]);
    expect(nextDownlinkSequence(7, 0)).toEqual({ ok: true, value: 8 });
  });

  it('refuses to step the sequence past 32 bits', () => {
    expect(nextDownlinkSequence(0xfffffff0, 320)).toMatchObject({
      ok: false,
      error: { kind: 'sequence_exhausted' },
    });
  });
});
