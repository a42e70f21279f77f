import type { DeviceRecord } from '../devices/device-repository';
import { decideIdentity, identityChangesOf } from './identity-decision';

const device = (over: Partial<DeviceRecord> = {}): DeviceRecord => ({
  id: 'a0:85:e3:f4:49:34',
  clientIdHash: 'bound',
  serialNumber: 'SN-1',
  status: 'active',
  activationCode: null,
  activationChallenge: null,
  firmwareVersion: '2.4.2',
  board: 'bread-compact-wifi',
  chipModel: 'esp32s3',
  mqttClientIdHash: null,
  ...over,
});

describe('who a check-in is', () => {
  it('asks a device whose serial has an imported key for its proof at first sight and when its Client-Id changes', () => {
    const claim = { clientIdHash: 'new', serialNumber: 'SN-1', serialKeyImported: true };
    expect(decideIdentity(undefined, claim)).toEqual({ kind: 'proof_required', because: 'first_sight' });
    expect(decideIdentity(device(), claim)).toEqual({ kind: 'proof_required', because: 'client_id_changed' });
    expect(decideIdentity(device(), { ...claim, clientIdHash: 'bound' })).toEqual({ kind: 'bound' });
  });

  it('quarantines a provable serial under a MAC bound to another serial, or to none', () => {
    const claim = { clientIdHash: 'new', serialNumber: 'SN-2', serialKeyImported: true };
    expect(decideIdentity(device(), claim)).toEqual({ kind: 'quarantine' });
    expect(decideIdentity(device({ serialNumber: null }), claim)).toEqual({ kind: 'quarantine' });
  });

  it('keeps binding and quarantine for devices without an imported key', () => {
    const claim = { clientIdHash: 'new', serialNumber: undefined, serialKeyImported: false };
    expect(decideIdentity(undefined, claim)).toEqual({ kind: 'first_sight' });
    expect(decideIdentity(device({ serialNumber: null }), claim)).toEqual({ kind: 'quarantine' });
    // A serial that appears on a device that never sent one is another identity.
    expect(
      decideIdentity(device({ serialNumber: null }), {
        ...claim,
        clientIdHash: 'bound',
        serialNumber: 'SN-9',
      }),
    ).toEqual({ kind: 'quarantine' });
  });

  it('names a changed board or chip, but not a first value', () => {
    expect(identityChangesOf(device(), { board: 'esp-box-3', chipModel: 'esp32s3' })).toEqual([
      { field: 'board', previous: 'bread-compact-wifi', current: 'esp-box-3' },
    ]);
    expect(identityChangesOf(device({ board: null }), { board: 'esp-box-3', chipModel: 'esp32c3' })).toEqual([
      { field: 'chip', previous: 'esp32s3', current: 'esp32c3' },
    ]);
  });
});
