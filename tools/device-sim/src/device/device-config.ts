import type { BoardProfile } from './board-profile';
import type { BoardSensors, WifiEnvironment } from './device-status';
import type { DeviceTimings } from './timings';

/** xiaozhi §1.4: what the device announces in its hello. */
export interface VoiceConfig {
  /** CONFIG_USE_SERVER_AEC: `features.aec` and the default listening mode `realtime`. */
  readonly serverAec: boolean;
  readonly glyphPush: boolean;
  readonly textFont: {
    readonly bundle: string;
    readonly charset: 'basic' | 'common';
    readonly size: number;
    readonly bpp: number;
  };
  /** CONFIG_RECEIVE_CUSTOM_MESSAGE (default n). */
  readonly receiveCustomMessages: boolean;
}

export const DEFAULT_VOICE: VoiceConfig = {
  serverAec: false,
  glyphPush: true,
  textFont: { bundle: 'noto-v1', charset: 'common', size: 20, bpp: 4 },
  receiveCustomMessages: false,
};

export const DEFAULT_WIFI: WifiEnvironment = { ssid: 'MyWiFi', rssi: -52, channel: 6, ip: '192.168.1.23' };

/** The vectors' stub board reports a battery at 80 % and a chip at 42.5 °C. */
export const DEFAULT_SENSORS: BoardSensors = {
  battery: { level: 80, charging: false },
  chipTemperature: 42.5,
};

/** Everything about a device that is configuration, not state: one object can serve a whole fleet. */
export interface DeviceConfig {
  readonly otaUrl: string;
  readonly profile: BoardProfile;
  readonly timings: DeviceTimings;
  readonly wifi: WifiEnvironment;
  readonly sensors: BoardSensors;
  readonly voice: VoiceConfig;
  /** xiaozhi §1.2: used when NVS mqtt.keepalive is absent. */
  readonly defaultKeepaliveSec: number;
  /** 0..1 spread on esp-mqtt's reconnect interval (0 = the firmware's fixed interval). */
  readonly reconnectJitter: number;
}
