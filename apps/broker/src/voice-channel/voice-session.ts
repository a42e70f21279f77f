import type { Mac } from '@fleet/protocol';
import type { AudioFormat } from '@fleet/queues';

// The device only checks that a downlink sequence grows (xiaozhi §1.6). Starting downlink at 2^31 keeps its
// counter blocks apart from the device's uplink ones (same key, same ssrc, uplink counting up from 1), so the
// two directions never share keystream. Within the downlink, each packet steps by the blocks it used.
export const FIRST_DOWNLINK_SEQUENCE = 0x8000_0000;

/** One UDP audio session: created by a device hello, owned by the replica holding its MQTT connection. */
export interface VoiceSession {
  readonly sessionId: string;
  readonly mac: Mac;
  readonly connectionId: string;
  readonly ssrc: number;
  readonly key: Buffer;
  readonly nonce: Buffer;
  readonly uplink: AudioFormat;
  readonly downlink: AudioFormat;
  /** Learnt from the session's first accepted packet (xiaozhi §1.6), then pinned: nobody else may use it. */
  deviceAddress?: { address: string; port: number };
  lastUplinkSequence: number;
  nextDownlinkSequence: number;
  downlinkTimestamp: number;
  lastActivityAt: number;
}
