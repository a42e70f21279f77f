import type { ListenMode, Mac, McpServerCore } from '@fleet/protocol';
import { defaultClock, type Clock } from '../clock/clock';
import { powerOn, runningImage, runningLabel, type OtaLabel, type SlotImage } from '../firmware/flash-slots';
import { SILENT_LOGGER, type SimLogger } from '../util/logger';
import { TypedEmitter } from '../util/typed-emitter';
import { decodeOpus, encodePcm } from '../voice/opus-codec';
import {
  abortSpeaking,
  closeVoiceSession,
  openVoiceSession,
  stopListening,
  type VoiceSessionOptions,
} from '../voice/voice-control';
import { bootSequence } from './boot';
import type { DeviceConfig } from './device-config';
import type { DeviceHost } from './device-host';
import type { EfuseIdentity } from './efuse';
import { freshNvs, parseMac, resolveDeviceConfig, type DeviceOptions } from './device-options';
import { FaultSettings, NO_FAULTS, type FaultKnobs } from './faults';
import { PoweredOff } from './main-task';
import { cloneNvs, nvsString, type NvsState } from './nvs';
import {
  newStats,
  Observations,
  type DeviceEventMap,
  type DeviceState,
  type RestartReason,
} from './observations';
import { rebootDevice } from './reboot';
import { Runtime } from './runtime';
import { attachLogger } from './device-logging';

/** What a fleet hands its devices so they share one configuration and one set of fleet-wide fault knobs. */
export interface SharedDeviceParts {
  readonly config: DeviceConfig;
  readonly fleetFaults: { current: FaultKnobs };
}

/**
 * One simulated xiaozhi-esp32 device. NVS (volume, brightness, theme, relays, MQTT settings, flash slots) lives
 * here across reboots; everything in RAM lives in a Runtime that each power-on creates and each reboot discards.
 */
export class SimDevice implements DeviceHost {
  readonly mac: Mac;
  readonly config: DeviceConfig;
  readonly efuse: EfuseIdentity | undefined;
  readonly clock: Clock;
  nvs: NvsState;
  readonly faults: FaultSettings;
  readonly stats = newStats();
  readonly observed: Observations;
  readonly events = new TypedEmitter<DeviceEventMap>();
  readonly log: SimLogger;
  private rt: Runtime | undefined;

  constructor(options: DeviceOptions, shared?: SharedDeviceParts) {
    this.mac = parseMac(options.mac);
    this.config = shared?.config ?? resolveDeviceConfig(options);
    this.efuse = options.efuse;
    this.clock = options.clock ?? defaultClock();
    this.nvs = options.nvs ? cloneNvs(options.nvs) : freshNvs(this.mac, options);
    this.faults = new FaultSettings(shared?.fleetFaults ?? { current: NO_FAULTS }, options.faults);
    this.observed = new Observations(options.recordLimit ?? 1000);
    this.log = options.logger ?? SILENT_LOGGER;
    if (options.logger) attachLogger(this, options.logger);
  }

  // --- life cycle -------------------------------------------------------------------------------------------

  /** Power on: boot, OTA check-in, MQTT. Does nothing if already on. */
  start(): void {
    if (!this.rt) this.powerOn();
  }

  /** Power off at once: no goodbye, no DISCONNECT (the broker sees the socket close). */
  stop(): Promise<void> {
    this.rt?.dispose();
    this.rt = undefined;
    return Promise.resolve();
  }

  /** A `{"type":"system","command":"reboot"}`: Reboot() on the main task (goodbye, DISCONNECT, 1 s, restart). */
  reboot(): void {
    const rt = this.rt;
    rt?.mainTask.schedule(() => rebootDevice(this, rt));
  }

  /** Pull the plug and plug it back in: a boot without any goodbye or DISCONNECT. */
  powerCycle(): void {
    this.restart('power-cycle');
  }

  /**
   * Erase the NVS and power on again (`idf.py erase-flash` and a reflash of the same image): a new Client-Id, no
   * MQTT settings, factory defaults; the eFuse serial and key stay (DESIGN §3: such a device takes its MAC back).
   */
  eraseNvs(): void {
    this.rt?.dispose();
    this.rt = undefined;
    this.nvs = { ...freshNvs(this.mac, { uuid: crypto.randomUUID() }), flash: this.nvs.flash };
    this.events.emit('restarting', 'power-cycle');
    this.powerOn();
  }

  /** Drop the MQTT connection without DISCONNECT; esp-mqtt reconnects by itself (no boot, no check-in). */
  flap(): void {
    this.rt?.mqtt?.flap();
  }

  // --- DeviceHost -------------------------------------------------------------------------------------------

  core(): McpServerCore {
    return this.config.profile.coreFor(this.runningImage().version);
  }

  runningImage(): SlotImage {
    return runningImage(this.nvs.flash);
  }

  restart(reason: RestartReason, detail?: string): void {
    if (reason === 'crash') {
      this.stats.crashes++;
      this.events.emit('crashed', detail ?? 'crash');
    }
    this.events.emit('restarting', reason);
    this.rt?.dispose();
    this.rt = undefined;
    this.powerOn();
  }

  private powerOn(): void {
    const boot = powerOn(this.nvs.flash);
    this.nvs.flash = boot.flash;
    if (boot.rolledBack) {
      this.stats.rollbacks++;
      this.events.emit('rolled-back', this.runningImage().version);
    }
    this.stats.bootCount++;
    const rt = new Runtime(this);
    this.rt = rt;
    this.events.emit('boot', this.stats.bootCount);
    bootSequence(this, rt).catch((err: unknown) => {
      if (!(err instanceof PoweredOff)) this.events.emit('warning', `boot failed: ${(err as Error).message}`);
    });
  }

  // --- what the device looks like ---------------------------------------------------------------------------

  get state(): DeviceState {
    return this.rt?.state ?? 'off';
  }

  get connected(): boolean {
    return this.rt?.mqtt?.connected ?? false;
  }

  get volume(): number {
    return this.nvs.volume;
  }

  /** The level the backlight shows right now (mid-ramp while it moves). */
  get brightness(): number {
    return this.rt?.backlight.current() ?? 0;
  }

  /** display.brightness in NVS: the level it returns to after a reboot. */
  get savedBrightness(): number {
    return this.nvs.brightness;
  }

  get theme(): string {
    return this.nvs.theme;
  }

  get relays(): Readonly<Record<string, boolean>> {
    return this.nvs.relays;
  }

  get version(): string {
    return this.runningImage().version;
  }

  get otaLabel(): OtaLabel {
    return runningLabel(this.nvs.flash);
  }

  get uuid(): string {
    return this.nvs.uuid;
  }

  /** The MQTT client id the OTA answer gave (empty before the first answer). */
  get clientId(): string {
    return nvsString(this.nvs.mqtt, 'client_id');
  }

  get bootCount(): number {
    return this.stats.bootCount;
  }

  get mqttConnectCount(): number {
    return this.stats.mqttConnectCount;
  }

  get sessionId(): string {
    return this.rt?.hasChannel ? this.rt.channel.sessionId : '';
  }

  /** IsAudioChannelOpened (xiaozhi §1.4). */
  get voiceChannelOpen(): boolean {
    return this.rt?.hasChannel === true && this.rt.channel.isOpen();
  }

  /** A copy of NVS (what a state file stores). */
  nvsSnapshot(): NvsState {
    return cloneNvs(this.nvs);
  }

  // --- fault knobs ------------------------------------------------------------------------------------------

  setFaults(knobs: Partial<FaultKnobs>): void {
    this.faults.set(knobs);
    this.rt?.mqtt?.armFlap();
  }

  clearFaults(): void {
    this.faults.clear();
    this.rt?.mqtt?.armFlap();
  }

  // --- voice ------------------------------------------------------------------------------------------------

  openVoiceSession(options: VoiceSessionOptions = {}): Promise<string> {
    return openVoiceSession(this, this.running(), options);
  }

  /** Opus frames as they are, or 16 kHz mono PCM encoded into 60 ms frames. Returns the packets sent. */
  sendAudio(input: Int16Array | readonly Uint8Array[]): number {
    const rt = this.running();
    if (!rt.hasChannel || !rt.channel.hasUdp) throw new Error('no audio channel is open');
    const frames = input instanceof Int16Array ? encodePcm(input) : input;
    return frames.filter((frame) => rt.channel.sendOpus(frame)).length;
  }

  stopListening(): Promise<void> {
    return stopListening(this.running());
  }

  abortSpeaking(reason?: 'wake_word_detected'): Promise<void> {
    return abortSpeaking(this.running(), reason);
  }

  closeVoiceSession(): Promise<void> {
    return closeVoiceSession(this.running());
  }

  /** The downlink frames played so far, decoded at the rate the server hello announced. */
  decodePlayedAudio(): Int16Array {
    const rate = this.rt?.hasChannel ? this.rt.channel.serverSampleRate : 24_000;
    return decodeOpus(this.observed.playedFrames.all, rate);
  }

  get listeningMode(): ListenMode | undefined {
    return this.rt?.listeningMode;
  }

  // --- raw input for broker tests ---------------------------------------------------------------------------

  /** Publishes anything (QoS 0) to `topic` (default: the publish_topic from NVS). */
  publishRaw(payload: string | Uint8Array, topic = nvsString(this.nvs.mqtt, 'publish_topic')): boolean {
    return this.rt?.mqtt?.publish(topic, payload) ?? false;
  }

  /** Writes bytes straight onto the MQTT socket. */
  writeRawBytes(bytes: Uint8Array): boolean {
    return this.rt?.mqtt?.writeRaw(bytes) ?? false;
  }

  // --- events -----------------------------------------------------------------------------------------------

  on<K extends keyof DeviceEventMap>(event: K, listener: (...args: DeviceEventMap[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  once<K extends keyof DeviceEventMap>(event: K, listener: (...args: DeviceEventMap[K]) => void): () => void {
    return this.events.once(event, listener);
  }

  next<K extends keyof DeviceEventMap>(
    event: K,
    options?: { timeoutMs?: number; filter?: (...args: DeviceEventMap[K]) => boolean },
  ): Promise<DeviceEventMap[K]> {
    return this.events.next(event, options);
  }

  /** Resolves once connected (at once if it already is). */
  async waitUntilConnected(timeoutMs = 10_000): Promise<void> {
    if (this.connected) return;
    await this.next('connected', { timeoutMs });
  }

  private running(): Runtime {
    if (!this.rt) throw new Error(`device ${this.mac} is off`);
    return this.rt;
  }
}
