import { toCJson, type CJsonValue } from '@fleet/protocol';
import type { BoardConfig } from './board-profile';

export interface WifiEnvironment {
  readonly ssid: string;
  readonly rssi: number;
  readonly channel: number;
  readonly ip: string;
}

/** Board parts a real board may lack: `null` leaves the section out of get_device_status. */
export interface BoardSensors {
  readonly battery: { readonly level: number; readonly charging: boolean } | null;
  readonly chipTemperature: number | null;
}

export interface StatusInputs {
  readonly board: BoardConfig;
  readonly sensors: BoardSensors;
  readonly wifi: WifiEnvironment;
  readonly volume: number;
  readonly brightness: number;
  readonly theme: string;
}

/** xiaozhi §3.4 #1: WiFi signal words from rssi. */
export function wifiSignal(rssi: number): 'strong' | 'medium' | 'weak' {
  if (rssi >= -60) return 'strong';
  if (rssi >= -70) return 'medium';
  return 'weak';
}

/**
 * Board::GetDeviceStatusJson for a WiFi board, in the firmware's key order: audio_speaker and screen always (maybe
 * `{}`), brightness only with a backlight, theme only on a themed display taller than 64 px, battery and chip only
 * when the board has them.
 */
export function deviceStatusJson(input: StatusInputs): CJsonValue {
  const { board, sensors } = input;
  const themed = board.features.lvgl && board.features.themes && board.display.height > 64;
  return toCJson({
    audio_speaker: { volume: input.volume },
    screen: {
      ...(board.features.backlight ? { brightness: input.brightness } : {}),
      ...(themed ? { theme: input.theme } : {}),
    },
    ...(sensors.battery
      ? { battery: { level: sensors.battery.level, charging: sensors.battery.charging } }
      : {}),
    network: { type: 'wifi', ssid: input.wifi.ssid, signal: wifiSignal(input.wifi.rssi) },
    ...(sensors.chipTemperature !== null ? { chip: { temperature: sensors.chipTemperature } } : {}),
  });
}
