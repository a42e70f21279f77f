import { normaliseChipName } from './esp-image-format';
import type { EspImage } from './verify-esp-image';

/** What devices of one board reported at check-in (xiaozhi §4.2 `chip_model_name`, `flash_size`). */
export interface BoardFacts {
  readonly board: string;
  readonly chips: readonly string[];
  /** The smallest `flash_size` (bytes) a device of the board reported; undefined when none did. */
  readonly smallestFlashBytes: number | undefined;
}

export interface BoardFitFailure {
  readonly kind: 'chip' | 'flash_size';
  readonly board: string;
  readonly expected: string;
  readonly found: string;
  readonly message: string;
}

const mb = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

/**
 * Would devices of these boards run the image? The bootloader refuses an image for another chip
 * (bootloader_common_check_chip_validity), and an app whose header claims more flash than the chip has stops at
 * start-up (spi_flash: "Detected size smaller than the size in the binary image header"). A board no device
 * has reported yet cannot be checked: that is a warning, not a refusal.
 */
export function checkBoardFit(
  image: Pick<EspImage, 'chip' | 'flash'>,
  boards: readonly BoardFacts[],
): { failures: BoardFitFailure[]; warnings: string[] } {
  const failures: BoardFitFailure[] = [];
  const warnings: string[] = [];
  for (const facts of boards) {
    const { board, chips } = facts;
    if (chips.length === 0) {
      warnings.push(`no device of board ${board} has reported its chip yet; it could not be checked`);
    } else if (!chips.some((c) => normaliseChipName(c) === image.chip)) {
      failures.push({
        kind: 'chip',
        board,
        expected: chips.join(', '),
        found: image.chip,
        message: `the image is for ${image.chip}, but devices of board ${board} report ${chips.join(', ')}`,
      });
    }
    const flash = image.flash.sizeBytes;
    const smallest = facts.smallestFlashBytes;
    if (flash === undefined) {
      warnings.push(`the header's flash size code ${image.flash.sizeCode} is not one ESP-IDF defines`);
    } else if (smallest !== undefined && smallest < flash) {
      failures.push({
        kind: 'flash_size',
        board,
        expected: `at most ${mb(smallest)}`,
        found: mb(flash),
        message: `the image header says ${mb(flash)} of flash, but a device of board ${board} reports ${mb(smallest)}: it would stop at start-up`,
      });
    }
  }
  return { failures, warnings: [...new Set(warnings)] };
}
