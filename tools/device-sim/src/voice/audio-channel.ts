import { createSocket, type Socket } from 'node:dgram';
import {
  aesCtr,
  checkDownlinkPacket,
  deviceMessage,
  deviceUplinkHeader,
  openAudioPacket,
  type AcceptedServerHello,
} from '@fleet/protocol';
import type { DeviceHost } from '../device/device-host';
import type { DownlinkDrop } from '../device/observations';
import type { Runtime } from '../device/runtime';
import { PlaybackQueue } from './playback-queue';

/**
 * MqttProtocol's audio channel (xiaozhi §1.4–§1.6): hello over MQTT, then AES-128-CTR Opus over UDP with the
 * hello's key and nonce. The session id stays in RAM after the channel closes (§5), so MCP replies carry it.
 */
export class AudioChannel {
  sessionId = '';
  serverSampleRate = 24_000;
  serverFrameDuration = 60;
  /** What the speaker still has to play (auto mode's `listen start` waits for it). */
  readonly playback: PlaybackQueue;
  private udp: Socket | undefined;
  private key: Uint8Array | undefined;
  private nonce: Uint8Array | undefined;
  private localSequence = 0;
  private remoteSequence = 0;
  private lastDownlinkTimestamp = 0;
  private lastIncomingAt = 0;
  private helloWaiter: ((hello: AcceptedServerHello | undefined) => void) | undefined;

  constructor(
    private readonly host: DeviceHost,
    private readonly rt: Runtime,
  ) {
    this.playback = new PlaybackQueue(host.clock);
  }

  get hasUdp(): boolean {
    return this.udp !== undefined;
  }

  /** IsAudioChannelOpened: UDP exists and something came in during the last 120 s. */
  isOpen(): boolean {
    const quiet = this.host.clock.now() - this.lastIncomingAt;
    return this.udp !== undefined && quiet < this.host.config.timings.channelTimeoutMs;
  }

  touch(): void {
    this.lastIncomingAt = this.host.clock.now();
  }

  /** ParseServerHello: the checks already passed (acceptServerHello); new key, sequences back to 0. */
  acceptHello(hello: AcceptedServerHello): void {
    this.sessionId = hello.sessionId;
    this.serverSampleRate = hello.sampleRate;
    this.serverFrameDuration = hello.frameDuration;
    this.key = hello.key;
    this.nonce = hello.nonce;
    this.localSequence = 0;
    this.remoteSequence = 0;
    this.helloWaiter?.(hello);
  }

  /** OpenAudioChannel, on the main task: blocks until the server hello or 10 s. */
  async open(): Promise<boolean> {
    const mqtt = this.rt.mqtt;
    if (!mqtt || !(await this.ensureMqtt())) return false;
    this.sessionId = '';
    const { voice } = this.host.config;
    const hello = deviceMessage.hello({
      serverAec: voice.serverAec,
      glyphPush: voice.glyphPush,
      textFont: voice.textFont,
    });
    const waiting = this.waitForHello();
    if (!mqtt.sendText(hello)) {
      this.helloWaiter?.(undefined);
      return false;
    }
    const accepted = await waiting;
    if (!accepted) {
      this.host.events.emit('warning', 'SERVER_TIMEOUT: no server hello');
      return false;
    }
    if (!(await this.connectUdp(accepted.udpServer, accepted.udpPort))) return false;
    this.touch();
    this.host.events.emit('session-opened', this.sessionId);
    return true;
  }

  /** CloseAudioChannel: UDP first, then the goodbye (which fails silently when offline). */
  close(sendGoodbye: boolean): void {
    this.udp?.close();
    this.udp = undefined;
    if (sendGoodbye) this.rt.mqtt?.sendText(deviceMessage.goodbye(this.sessionId));
    this.host.events.emit('session-closed', !sendGoodbye);
    if (this.rt.state !== 'upgrading') this.rt.setState('idle');
  }

  /** SendAudio: header from the nonce with length, timestamp and ++sequence (first packet = 1), then AES-CTR. */
  sendOpus(frame: Uint8Array): boolean {
    if (!this.udp || !this.key || !this.nonce) return false;
    const timestamp = this.host.config.voice.serverAec ? this.lastDownlinkTimestamp : 0;
    const header = deviceUplinkHeader(this.nonce, frame.length, timestamp, ++this.localSequence);
    this.udp.send(Buffer.concat([header, aesCtr(this.key, header, frame)]));
    this.host.stats.uplinkPackets++;
    return true;
  }

  dispose(): void {
    this.udp?.close();
    this.udp = undefined;
    this.helloWaiter?.(undefined);
  }

  private async ensureMqtt(): Promise<boolean> {
    const mqtt = this.rt.mqtt;
    if (mqtt?.connected) return true;
    if (!mqtt?.start()) return false;
    try {
      await this.host.events.next('connected', { timeoutMs: this.host.config.timings.mqttConnectTimeoutMs });
      return true;
    } catch {
      this.host.events.emit('warning', 'SERVER_NOT_CONNECTED');
      return false;
    }
  }

  private waitForHello(): Promise<AcceptedServerHello | undefined> {
    return new Promise((resolve) => {
      const cancel = this.rt.after(this.host.config.timings.helloTimeoutMs, () => done(undefined));
      const done = (hello: AcceptedServerHello | undefined) => {
        cancel();
        this.helloWaiter = undefined;
        resolve(hello);
      };
      this.helloWaiter = done;
    });
  }

  private connectUdp(server: string, port: number): Promise<boolean> {
    this.udp?.close();
    const udp = createSocket('udp4');
    this.udp = udp;
    udp.on('message', (data) => this.onDatagram(udp, data));
    udp.on('error', (err) => this.host.events.emit('warning', `UDP: ${err.message}`));
    return new Promise((resolve) => {
      udp.once('error', () => resolve(false));
      udp.connect(port, server, () => resolve(true));
    });
  }

  // xiaozhi §1.6: length, type, exact length, sequence above the last one; decrypt; play only while speaking.
  private onDatagram(udp: Socket, data: Buffer): void {
    if (udp !== this.udp || !this.key) return;
    const checked = checkDownlinkPacket(data, this.remoteSequence);
    if (!checked.ok) return this.drop(checked.error.kind);
    const opus = openAudioPacket(this.key, data);
    this.remoteSequence = checked.value.header.sequence;
    this.lastDownlinkTimestamp = checked.value.header.timestamp;
    this.touch();
    if (this.rt.state !== 'speaking') return this.drop('not_speaking');
    this.host.stats.downlinkPlayed++;
    this.playback.played(this.serverFrameDuration);
    this.host.observed.playedFrames.push(opus);
    this.host.events.emit('audio', opus);
  }

  private drop(reason: DownlinkDrop): void {
    const drops = this.host.observed.downlinkDrops;
    drops[reason] = (drops[reason] ?? 0) + 1;
  }
}
