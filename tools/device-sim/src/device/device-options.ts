import { normaliseMac, type Mac } from '@fleet/protocol';
import type { Clock } from '../clock/clock';
import { appImageDefaults, type AppImage } from '../firmware/app-image';
import { initialFlash, type OtaLabel } from '../firmware/flash-slots';
import type { SimLogger } from '../util/logger';
import { BoardProfile, BREAD_COMPACT_WIFI, withRelayTools, type BoardConfig } from './board-profile';
import {
  DEFAULT_SENSORS,
  DEFAULT_VOICE,
  DEFAULT_WIFI,
  type DeviceConfig,
  type VoiceConfig,
} from './device-config';
import type { BoardSensors, WifiEnvironment } from './device-status';
import type { EfuseIdentity } from './efuse';
import type { FaultKnobs } from './faults';
import { uuidFor } from './identity';
import type { NvsState } from './nvs';
import { FIRMWARE_TIMINGS, scaleTimings, type DeviceTimings } from './timings';

/** The firmware version a device ships with unless told otherwise (the vectors' build). */
export const DEFAULT_FIRMWARE_VERSION = '2.4.2';

/** Configuration shared by every device of a fleet (or given to one device). */
export interface DeviceConfigOptions {
  /** NVS wifi.ota_url / CONFIG_OTA_URL. */
  readonly otaUrl: string;
  /** A board (default: the vectors' bread-compact-wifi), or a profile already shared with other devices. */
  readonly board?: BoardConfig | BoardProfile;
  /** Replace the board's own tools with this many relay tools (`self.board.relay_NN.set`). */
  readonly relayTools?: number;
  readonly wifi?: Partial<WifiEnvironment>;
  readonly sensors?: Partial<BoardSensors>;
  readonly voice?: Partial<VoiceConfig>;
  /** The firmware's delays times this (before `timings` overrides); default 1. */
  readonly timeScale?: number;
  readonly timings?: Partial<DeviceTimings>;
  readonly defaultKeepaliveSec?: number;
  readonly reconnectJitter?: number;
}

/** One device. */
export interface DeviceOptions extends DeviceConfigOptions {
  readonly mac: string;
  /** board.uuid; default derived from the MAC (stable across runs). */
  readonly uuid?: string;
  /** An eFuse serial and HMAC key: Activation-Version 2, the Serial-Number header, the HMAC answer (xiaozhi §4.3). */
  readonly efuse?: EfuseIdentity;
  /** The image in the boot slot at first power-on. */
  readonly firmware?: Partial<AppImage>;
  readonly otaLabel?: OtaLabel;
  readonly initial?: { readonly volume?: number; readonly brightness?: number; readonly theme?: string };
  /** A saved NVS (e.g. from a state file) instead of a fresh one. */
  readonly nvs?: NvsState;
  readonly faults?: Partial<FaultKnobs>;
  /** How many messages, check-ins, audio frames … each log keeps (default 1000; 0 at fleet scale). */
  readonly recordLimit?: number;
  readonly clock?: Clock;
  readonly logger?: SimLogger;
}

export function resolveDeviceConfig(options: DeviceConfigOptions): DeviceConfig {
  const board = options.board ?? BREAD_COMPACT_WIFI;
  const relays = options.relayTools;
  const baseConfig = board instanceof BoardProfile ? board.config : board;
  const profile =
    board instanceof BoardProfile && relays === undefined
      ? board
      : new BoardProfile(relays === undefined ? baseConfig : withRelayTools(baseConfig, relays));
  return {
    otaUrl: options.otaUrl,
    profile,
    timings: { ...scaleTimings(options.timeScale ?? 1, FIRMWARE_TIMINGS), ...options.timings },
    wifi: { ...DEFAULT_WIFI, ...options.wifi },
    sensors: { ...DEFAULT_SENSORS, ...options.sensors },
    voice: { ...DEFAULT_VOICE, ...options.voice },
    defaultKeepaliveSec: options.defaultKeepaliveSec ?? 240,
    reconnectJitter: options.reconnectJitter ?? 0,
  };
}

export function parseMac(text: string): Mac {
  const mac = normaliseMac(text);
  if (!mac.ok) throw new Error(mac.error.message);
  return mac.value;
}

/** A factory-fresh NVS: the defaults of the firmware (volume 70, brightness 75, theme light) and one image. */
export function freshNvs(
  mac: Mac,
  options: Pick<DeviceOptions, 'uuid' | 'firmware' | 'otaLabel' | 'initial'>,
): NvsState {
  const image = appImageDefaults({
    ...options.firmware,
    version: options.firmware?.version ?? DEFAULT_FIRMWARE_VERSION,
  });
  return {
    uuid: options.uuid ?? uuidFor(mac),
    volume: options.initial?.volume ?? 70,
    brightness: options.initial?.brightness ?? 75,
    theme: options.initial?.theme ?? 'light',
    relays: {},
    mqtt: {},
    flash: initialFlash(image, options.otaLabel),
  };
}
