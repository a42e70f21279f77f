// The server side of a voice session for tests: a real UDP socket, the session key, and helpers to talk to a
// simulated device the way the platform's broker would (xiaozhi §1.4–§1.6).
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import {
  buildSessionNonce,
  checkUplinkPacket,
  openAudioPacket,
  sealAudioPacket,
  toHex,
  type AudioHeader,
} from '@fleet/protocol';

export interface UplinkPacket {
  readonly header: AudioHeader;
  readonly opus: Uint8Array;
}

export class FakeVoiceServer {
  readonly key = Uint8Array.from(Buffer.from('00112233445566778899aabbccddeeff', 'hex'));
  readonly connectionId = 0xabcdef01;
  readonly nonce = buildSessionNonce(this.connectionId);
  readonly received: UplinkPacket[] = [];
  private device: RemoteInfo | undefined;

  private constructor(readonly socket: Socket) {
    socket.on('message', (data, rinfo) => {
      this.device = rinfo;
      const checked = checkUplinkPacket(data, 0);
      if (checked.ok)
        this.received.push({ header: checked.value.header, opus: openAudioPacket(this.key, data) });
    });
  }

  static async start(): Promise<FakeVoiceServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new FakeVoiceServer(socket);
  }

  get port(): number {
    return this.socket.address().port;
  }

  hello(sessionId: string): string {
    return JSON.stringify({
      type: 'hello',
      version: 3,
      session_id: sessionId,
      transport: 'udp',
      udp: {
        server: '127.0.0.1',
        port: this.port,
        encryption: 'aes-128-ctr',
        key: toHex(this.key),
        nonce: toHex(this.nonce),
      },
      audio_params: { format: 'opus', sample_rate: 24000, channels: 1, frame_duration: 60 },
    });
  }

  /** One downlink packet with `sequence`, sent to where the device's uplink came from. */
  async sendFrame(opus: Uint8Array, sequence: number): Promise<void> {
    if (!this.device) throw new Error('the device has not sent any UDP yet');
    const packet = sealAudioPacket(
      this.key,
      { type: 1, flags: 0, ssrc: this.connectionId, timestamp: 0, sequence },
      opus,
    );
    const { port, address } = this.device;
    await new Promise<void>((resolve, reject) =>
      this.socket.send(packet, port, address, (err) => (err ? reject(err) : resolve())),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

/** `ms` of a 440 Hz tone, 16-bit mono at `rate`. */
export function tone(ms: number, rate = 16_000): Int16Array {
  const pcm = new Int16Array((rate * ms) / 1000);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return pcm;
}
