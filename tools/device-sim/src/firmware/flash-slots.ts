import type { AppImage } from './app-image';

export type OtaLabel = 'ota_0' | 'ota_1';

/** The size of an app slot (4 MB minus 64 KB): a larger image cannot be written. */
export const APP_SLOT_BYTES = 0x3f0000;

/**
 * How a written image misbehaves: it crashes on its first boot before (or right after) its first OTA check, or
 * it runs but never confirms itself (no esp_ota_mark_app_valid_cancel_rollback), so the bootloader rolls it back
 * at whatever reboot comes next (xiaozhi §4.3).
 */
export type ImageCrash = 'before-check-in' | 'after-check-in' | 'unconfirmed';

export interface SlotImage extends AppImage {
  readonly crash?: ImageCrash;
}

/**
 * The two app partitions and otadata, as the bootloader sees them. `bootState` is the otadata state of `boot`:
 * `new` after esp_ota_set_boot_partition, `pending_verify` once booted, `valid` after
 * esp_ota_mark_app_valid_cancel_rollback (CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE=y, xiaozhi §4.3).
 */
export interface FlashState {
  readonly slots: Readonly<Partial<Record<OtaLabel, SlotImage>>>;
  readonly boot: OtaLabel;
  readonly running: OtaLabel;
  readonly bootState: 'valid' | 'new' | 'pending_verify';
}

export function initialFlash(image: SlotImage, label: OtaLabel = 'ota_0'): FlashState {
  return { slots: { [label]: image }, boot: label, running: label, bootState: 'valid' };
}

export function otherSlot(label: OtaLabel): OtaLabel {
  return label === 'ota_0' ? 'ota_1' : 'ota_0';
}

export function runningImage(flash: FlashState): SlotImage {
  const image = flash.slots[flash.running];
  if (!image) throw new Error(`no image in the running slot ${flash.running}`);
  return image;
}

/** esp_ota_begin/write/end on the partition after the running one, then esp_ota_set_boot_partition. */
export function writeNextSlot(flash: FlashState, image: SlotImage): FlashState {
  const next = otherSlot(flash.running);
  return { ...flash, slots: { ...flash.slots, [next]: image }, boot: next, bootState: 'new' };
}

/**
 * The bootloader at power-on: a `new` image is tried once (`pending_verify`); an image still `pending_verify`
 * at the next power-on never confirmed itself, so it is aborted and the previous slot boots again.
 */
export function powerOn(flash: FlashState): { flash: FlashState; rolledBack: boolean } {
  switch (flash.bootState) {
    case 'new':
      return { flash: { ...flash, running: flash.boot, bootState: 'pending_verify' }, rolledBack: false };
    case 'pending_verify': {
      const previous = otherSlot(flash.boot);
      // Nothing to fall back to: the bootloader keeps the only image it has.
      if (flash.slots[previous] === undefined) {
        return { flash: { ...flash, running: flash.boot, bootState: 'valid' }, rolledBack: false };
      }
      return { flash: { ...flash, boot: previous, running: previous, bootState: 'valid' }, rolledBack: true };
    }
    case 'valid':
      return { flash: { ...flash, running: flash.boot }, rolledBack: false };
  }
}

/** xiaozhi §4.3: called after a successful OTA check with no upgrade. */
export function markValid(flash: FlashState): FlashState {
  return flash.bootState === 'pending_verify' ? { ...flash, bootState: 'valid' } : flash;
}

/** True while the running image has not yet confirmed itself and is configured to crash at `stage`. */
export function crashesAt(flash: FlashState, stage: ImageCrash): boolean {
  return (
    flash.bootState === 'pending_verify' &&
    flash.running === flash.boot &&
    runningImage(flash).crash === stage
  );
}

/** ota.label in the check-in: the slot the running image came from. */
export function runningLabel(flash: FlashState): OtaLabel {
  return flash.running;
}
