import { createHash } from 'node:crypto';
import type { Mac } from '@fleet/protocol';

/**
 * What a device with an eFuse serial carries for life (xiaozhi §4.1, §4.3): the serial in USER_DATA and the HMAC
 * KEY0 that answers activation challenges. eFuses are one-time programmable: erasing the flash keeps both.
 */
export interface EfuseIdentity {
  readonly serialNumber: string;
  readonly hmacKey: Buffer;
}

/**
 * A device's eFuse identity derived from its MAC and a seed, so a simulated fleet keeps it across runs and a test
 * can compute the CSV an admin imports (`efuseCsv`) without reaching into the devices.
 */
export function efuseFor(mac: Mac, seed: string): EfuseIdentity {
  return {
    serialNumber: `SIM${mac.replace(/:/g, '').toUpperCase()}`,
    hmacKey: createHash('sha256').update(`efuse hmac key0 ${seed} ${mac}`).digest(),
  };
}

/** `serial_number,key` lines, as POST /api/v1/serial-keys takes them. */
export function efuseCsv(identities: readonly EfuseIdentity[]): string {
  return ['serial_number,key', ...identities.map((e) => `${e.serialNumber},${e.hmacKey.toString('hex')}`)]
    .join('\n')
    .concat('\n');
}
