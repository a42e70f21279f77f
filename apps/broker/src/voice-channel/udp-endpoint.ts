import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import {
  AUDIO_HEADER_BYTES,
  checkUplinkPacket,
  nextDownlinkSequence,
  openAudioPacket,
  sealAudioPacket,
} from '@fleet/protocol';
import type { BrokerMetrics } from '../broker-metrics';
import type { EdgeGuard } from '../edge/edge-guard';
import type { SessionRegistry } from './session-registry';
import type { VoiceSession } from './voice-session';

/**
 * How far ahead of the last accepted packet an uplink may be. The device counts up by one per 60 ms frame from 1
 * after each hello (xiaozhi §1.6), so only lost packets make a gap: 256 is some 15 s of consecutive loss.
 */
export const UPLINK_SEQUENCE_WINDOW = 256;

export interface UplinkAudio {
  session: VoiceSession;
  sequence: number;
  timestamp: number;
  opus: Buffer;
}

/**
 * The UDP socket of this replica: checks and decrypts what devices send (xiaozhi §1.6), seals what goes back.
 * A packet is found by the ssrc in its header, so one port serves every session.
 */
export class UdpEndpoint {
  private socket: Socket | undefined;

  constructor(
    private readonly sessions: SessionRegistry,
    private readonly metrics: BrokerMetrics,
    private readonly onAudio: (audio: UplinkAudio) => void,
    private readonly guard?: Pick<EdgeGuard, 'countError'>,
  ) {}

  async listen(host: string, port: number): Promise<number> {
    const socket = createSocket({ type: host.includes(':') ? 'udp6' : 'udp4' });
    socket.on('message', (packet, rinfo) => {
      // Anyone can send a datagram: whatever one makes go wrong here is counted, never the end of the broker.
      try {
        this.receive(packet, rinfo);
      } catch {
        this.count('up', 'handler_error');
      }
    });
    socket.on('error', (err) => {
      this.metrics.udpPackets.inc({ direction: 'up', outcome: 'socket_error' });
      this.guard?.countError('udp', err);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    this.socket = socket;
    return socket.address().port;
  }

  private receive(packet: Buffer, rinfo: RemoteInfo): void {
    if (packet.length < AUDIO_HEADER_BYTES) return this.count('up', 'too_short');
    const session = this.sessions.bySsrcOf(packet.readUInt32BE(4));
    if (!session) return this.count('up', 'unknown_session');
    // The session is pinned to the address of its first accepted packet: AES-CTR has no MAC, so anyone who
    // learnt the ssrc could otherwise speak into it, or move its downlink. A device whose address really
    // changed says hello again, which opens a new session.
    const pinned = session.deviceAddress;
    if (pinned && (pinned.address !== rinfo.address || pinned.port !== rinfo.port)) {
      return this.count('up', 'foreign_address');
    }
    // Strictly increasing (an equal sequence is a replay), and not far ahead (that would make every real
    // packet after it look stale).
    const checked = checkUplinkPacket(packet, session.lastUplinkSequence + 1, UPLINK_SEQUENCE_WINDOW - 1);
    if (!checked.ok) return this.count('up', checked.error.kind);
    session.lastUplinkSequence = checked.value.header.sequence;
    session.deviceAddress ??= { address: rinfo.address, port: rinfo.port };
    session.lastActivityAt = Date.now();
    this.count('up', 'accepted');
    this.onAudio({
      session,
      sequence: checked.value.header.sequence,
      timestamp: checked.value.header.timestamp,
      opus: Buffer.from(openAudioPacket(session.key, packet)),
    });
  }

  /** Sends one Opus frame; false when the device's address is not known yet or the sequence space is used up. */
  send(session: VoiceSession, opus: Buffer): boolean {
    if (!this.socket || !session.deviceAddress) {
      this.count('down', 'no_device_address');
      return false;
    }
    const sequence = session.nextDownlinkSequence;
    const next = nextDownlinkSequence(sequence, opus.length);
    if (!next.ok) {
      // Never wrap: a repeated counter block would reuse keystream. The device needs a new hello.
      this.count('down', 'sequence_exhausted');
      return false;
    }
    const packet = sealAudioPacket(
      session.key,
      { type: 1, flags: 0, ssrc: session.ssrc, timestamp: session.downlinkTimestamp >>> 0, sequence },
      opus,
    );
    session.nextDownlinkSequence = next.value;
    session.downlinkTimestamp += session.downlink.frameDurationMs;
    session.lastActivityAt = Date.now();
    this.socket.send(packet, session.deviceAddress.port, session.deviceAddress.address);
    this.count('down', 'sent');
    return true;
  }

  private count(direction: 'up' | 'down', outcome: string): void {
    this.metrics.udpPackets.inc({ direction, outcome });
  }

  close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    return socket ? new Promise((resolve) => socket.close(() => resolve())) : Promise.resolve();
  }
}
