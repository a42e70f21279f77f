import type { ListenMode } from '@fleet/protocol';
import { AudioChannel } from '../voice/audio-channel';
import { Backlight } from './backlight';
import type { DeviceHost } from './device-host';
import { MainTask, PoweredOff } from './main-task';
import type { DeviceMqtt } from './mqtt-protocol';
import type { DeviceState } from './observations';

/**
 * What a device holds in RAM during one power-on: the main task, the backlight, the MQTT protocol, the audio
 * channel, the device state. A reboot throws all of it away (`dispose`) and the next power-on starts a new one;
 * anything still awaiting on the old one gets PoweredOff and unwinds.
 */
export class Runtime {
  alive = true;
  state: DeviceState = 'starting';
  listeningMode: ListenMode = 'auto';
  readonly mainTask: MainTask;
  readonly backlight: Backlight;
  mqtt: DeviceMqtt | undefined;
  /** From initialize's capabilities.vision (boards with a camera only). */
  vision: { url: string; token: string } | undefined;
  private audio: AudioChannel | undefined;
  private aborter: AbortController | undefined;
  private readonly disposers = new Set<() => void>();

  constructor(readonly host: DeviceHost) {
    this.mainTask = new MainTask((err) =>
      host.events.emit('warning', `main task job failed: ${(err as Error).message}`),
    );
    this.backlight = new Backlight(host.clock, host.config.timings.brightnessStepMs);
  }

  /** The audio channel (created on first use: most devices of a large fleet never talk). */
  get channel(): AudioChannel {
    this.audio ??= new AudioChannel(this.host, this);
    return this.audio;
  }

  get hasChannel(): boolean {
    return this.audio !== undefined;
  }

  /** Aborts the HTTP calls of this power-on when it ends. */
  get signal(): AbortSignal {
    this.aborter ??= new AbortController();
    return this.aborter.signal;
  }

  setState(state: DeviceState): void {
    if (this.state === state) return;
    this.state = state;
    this.host.events.emit('state', state);
  }

  /** A firmware delay; rejects with PoweredOff if the device loses power meanwhile. */
  sleep(ms: number): Promise<void> {
    if (!this.alive) return Promise.reject(new PoweredOff());
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const dispose = () => {
        cancel();
        reject(new PoweredOff());
      };
      const cancel = this.host.clock.after(ms, () => {
        this.disposers.delete(dispose);
        resolve();
      });
      this.disposers.add(dispose);
    });
  }

  /** A timer that dies with this power-on. */
  after(ms: number, fn: () => void): () => void {
    if (!this.alive) return () => undefined;
    const cancel = this.host.clock.after(ms, () => {
      this.disposers.delete(cancel);
      if (this.alive) fn();
    });
    this.disposers.add(cancel);
    return () => {
      this.disposers.delete(cancel);
      cancel();
    };
  }

  /** Calls `fn` when this power-on ends (at once if it already has); the result forgets it. */
  onDispose(fn: () => void): () => void {
    if (!this.alive) {
      fn();
      return () => undefined;
    }
    this.disposers.add(fn);
    return () => this.disposers.delete(fn);
  }

  /** After any await that is not a `sleep` (an HTTP call): stop here if the power went meanwhile. */
  ensureAlive(): void {
    if (!this.alive) throw new PoweredOff();
  }

  /** Blocks forever (until power is lost): what follows esp_restart() never runs. */
  halt(): Promise<never> {
    return new Promise((_resolve, reject) => {
      if (!this.alive) reject(new PoweredOff());
      else this.disposers.add(() => reject(new PoweredOff()));
    });
  }

  /** Power is gone: timers, the main task, HTTP calls, sockets. */
  dispose(): void {
    if (!this.alive) return;
    this.alive = false;
    this.mainTask.halt();
    for (const dispose of [...this.disposers]) dispose();
    this.disposers.clear();
    this.aborter?.abort();
    this.mqtt?.destroy();
    this.audio?.dispose();
    this.state = 'off';
  }
}
