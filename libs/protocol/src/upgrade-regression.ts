import { compareFirmwareVersions } from './firmware-version';

/**
 * DESIGN §5: a device that later reports an older version than a verified upgrade reached has regressed (a
 * bootloader rollback of an image that never confirmed itself, xiaozhi §4.3; a reflash). Versions are ordered as
 * the device orders them (xiaozhi §4.3); a version the device could not compare proves nothing either way.
 */
export function regressesFrom(reached: string, reported: string): boolean {
  return compareFirmwareVersions(reported, reached) === -1;
}

/**
 * Whether a report is worth looking up verified upgrades for: only a version lower than what the device ran
 * before can be one, so every other check-in costs nothing more. A device with no version on record has never
 * checked in, so no upgrade of it can have been verified (the first boots of a new fleet query nothing).
 */
export function mayRevealRegression(
  previous: string | null | undefined,
  reported: string | undefined,
): boolean {
  if (reported === undefined || previous === null || previous === undefined) return false;
  return regressesFrom(previous, reported);
}
