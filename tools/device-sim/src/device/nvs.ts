import type { FlashState } from '../firmware/flash-slots';

/** An NVS value: the firmware stores strings and int32s; a key read with the other type is absent. */
export type NvsValue = string | number;

/**
 * Everything that survives a reboot: NVS namespaces the simulator models, plus the flash slots. Plain JSON, so a
 * CLI can write a fleet's state to a file and read it back.
 */
export interface NvsState {
  /** board.uuid (xiaozhi §4.1 Client-Id). */
  uuid: string;
  /** audio.output_volume. */
  volume: number;
  /** display.brightness. */
  brightness: number;
  /** display.theme. */
  theme: string;
  /** Board tool state that "keeps its state across reboots" (relay name → on). */
  relays: Record<string, boolean>;
  /** Namespace `mqtt`: every string/number key of the OTA answer's mqtt object, never deleted (xiaozhi §1.1). */
  mqtt: Record<string, NvsValue>;
  /** assets.download_url, set by self.assets.set_download_url and erased once used at boot. */
  assetsDownloadUrl?: string;
  flash: FlashState;
}

export function nvsString(ns: Record<string, NvsValue>, key: string): string {
  const value = ns[key];
  return typeof value === 'string' ? value : '';
}

export function nvsInt(ns: Record<string, NvsValue>, key: string, fallback: number): number {
  const value = ns[key];
  return typeof value === 'number' ? value : fallback;
}

export function cloneNvs(nvs: NvsState): NvsState {
  return structuredClone(nvs);
}
