import type { DeviceRecord, IdentityChange } from '../devices/device-repository';

/** Who a check-in claims to be: the Client-Id (hashed) and the eFuse serial, when it sent one. */
export interface IdentityClaim {
  clientIdHash: string;
  serialNumber: string | undefined;
  /** An admin imported the eFuse key of this serial (activation v2 can prove it). */
  serialKeyImported: boolean;
}

export type IdentityDecision =
  /** The bound identity: credentials as usual. */
  | { kind: 'bound' }
  /** A MAC seen for the first time without a provable serial: bound to this Client-Id now (DESIGN §3). */
  | { kind: 'first_sight' }
  /** A serial whose key was imported: no credentials until the device answers a challenge under its key. */
  | { kind: 'proof_required'; because: 'first_sight' | 'client_id_changed' }
  /** Another identity under a bound MAC: held for an operator, the bound device keeps working. */
  | { kind: 'quarantine' };

/**
 * DESIGN §3: the proof is required at first sight and whenever the Client-Id changes, for a device whose serial
 * has an imported key; devices without one keep today's binding and quarantine. Only the serial the MAC is
 * bound to can take the MAC back: proving another serial's key proves another device.
 */
export function decideIdentity(device: DeviceRecord | undefined, claim: IdentityClaim): IdentityDecision {
  if (!device) {
    return claim.serialKeyImported
      ? { kind: 'proof_required', because: 'first_sight' }
      : { kind: 'first_sight' };
  }
  if (sameIdentity(device, claim)) return { kind: 'bound' };
  if (claim.serialKeyImported && device.serialNumber !== null && device.serialNumber === claim.serialNumber) {
    return { kind: 'proof_required', because: 'client_id_changed' };
  }
  return { kind: 'quarantine' };
}

export function sameIdentity(
  device: DeviceRecord,
  claim: Pick<IdentityClaim, 'clientIdHash' | 'serialNumber'>,
) {
  if (device.clientIdHash !== claim.clientIdHash) return false;
  // A serial number, once bound, must match; a device that never sent one may not start now unnoticed.
  return device.serialNumber === null
    ? claim.serialNumber === undefined
    : device.serialNumber === claim.serialNumber;
}

/**
 * What a check-in of the bound identity changes about what the device is: its board or its chip. A first value
 * (a row that had none) is not a change.
 */
export function identityChangesOf(
  device: Pick<DeviceRecord, 'board' | 'chipModel'>,
  reported: { board: string | undefined; chipModel: string | undefined },
): IdentityChange[] {
  const changes: IdentityChange[] = [];
  if (device.board !== null && reported.board !== undefined && reported.board !== device.board)
    changes.push({ field: 'board', previous: device.board, current: reported.board });
  if (
    device.chipModel !== null &&
    reported.chipModel !== undefined &&
    reported.chipModel !== device.chipModel
  )
    changes.push({ field: 'chip', previous: device.chipModel, current: reported.chipModel });
  return changes;
}
