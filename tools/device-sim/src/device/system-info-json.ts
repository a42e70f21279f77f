import { compileTimeOf, type AppImage } from '../firmware/app-image';
import { APP_SLOT_BYTES, type OtaLabel } from '../firmware/flash-slots';
import type { BoardConfig } from './board-profile';
import type { WifiEnvironment } from './device-status';

export interface SystemInfoInputs {
  readonly board: BoardConfig;
  readonly mac: string;
  readonly uuid: string;
  readonly image: AppImage;
  readonly otaLabel: OtaLabel;
  /** Omitted while in WiFi config mode (the simulator never is). */
  readonly wifi: WifiEnvironment;
}

/** A 16 MB flash layout: nvs, otadata, phy_init, two 4 MB app slots, assets (table order). */
const PARTITIONS: readonly (readonly [
  label: string,
  type: number,
  subtype: number,
  address: number,
  size: number,
])[] = [
  ['nvs', 1, 2, 0x9000, 0x4000],
  ['otadata', 1, 0, 0xd000, 0x2000],
  ['phy_init', 1, 1, 0xf000, 0x1000],
  ['ota_0', 0, 16, 0x20000, APP_SLOT_BYTES],
  ['ota_1', 0, 17, 0x410000, APP_SLOT_BYTES],
  ['assets', 1, 130, 0x800000, 0x800000],
];

/**
 * Board::GetSystemInfoJson (xiaozhi §4.2), built by concatenation as the firmware does: the heap size is a string,
 * `compile_time` is `__DATE__ "T" __TIME__ "Z"`, `"partition_table": [` has its space, strings are not escaped.
 * The same text is the OTA check-in body and the result of self.get_system_info.
 */
export function systemInfoJson(input: SystemInfoInputs): string {
  const { board, image, wifi } = input;
  const c = board.chip;
  const partitions = PARTITIONS.map(
    ([label, type, subtype, address, size]) =>
      `{"label":"${label}","type":${type},"subtype":${subtype},"address":${address},"size":${size}}`,
  ).join(',');
  return (
    `{"version":2,"language":"${board.language}","flash_size":${c.flashSize},` +
    `"minimum_free_heap_size":"${c.minimumFreeHeap}","mac_address":"${input.mac}","uuid":"${input.uuid}",` +
    `"chip_model_name":"${c.modelName}",` +
    `"chip_info":{"model":${c.model},"cores":${c.cores},"revision":${c.revision},"features":${c.features}},` +
    `"application":{"name":"${image.projectName}","version":"${image.version}",` +
    `"compile_time":"${compileTimeOf(image)}","idf_version":"${image.idfVersion}","elf_sha256":"${image.elfSha256}"},` +
    `"partition_table": [${partitions}],` +
    `"ota":{"label":"${input.otaLabel}"},` +
    `"display":{"monochrome":${board.display.monochrome},"width":${board.display.width},"height":${board.display.height}},` +
    `"board":{"type":"${board.boardType}","name":"${board.boardName}","manufacturer":"",` +
    `"ssid":"${wifi.ssid}","rssi":${wifi.rssi},"channel":${wifi.channel},"ip":"${wifi.ip}","mac":"${input.mac}"}}`
  );
}
