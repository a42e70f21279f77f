import type { ChallengeIssuer } from '../activation/challenge-issuer';
import type { SerialKeysRepository } from '../activation/serial-keys.repository';
import type { DeviceRecord, DeviceRepository } from '../devices/device-repository';
import { checkInHeaders, newDeviceIdentity, systemInfoBody } from '../../test/stock-device';
import { OtaCheckInService } from './ota-check-in';

// A repository that remembers what was written, and a device row once created.
function fakeDevices() {
  const rows = new Map<string, DeviceRecord>();
  const writes: string[] = [];
  const repository = {
    find: (mac: string) => Promise.resolve(rows.get(mac)),
    findForCheckIn: (mac: string) => Promise.resolve({ device: rows.get(mac), assigned: undefined }),
    createOnFirstSight: (d: { mac: string; clientIdHash: string }) => {
      writes.push(`create ${d.mac}`);
      const row: DeviceRecord = {
        id: d.mac,
        clientIdHash: d.clientIdHash,
        serialNumber: null,
        status: 'active',
        activationCode: null,
        activationChallenge: null,
        firmwareVersion: null,
        board: null,
        chipModel: null,
        mqttClientIdHash: null,
      };
      rows.set(d.mac, row);
      return Promise.resolve(row);
    },
    recordBoot: (f: { mac: string }) => {
      writes.push(`boot ${f.mac}`);
      return Promise.resolve();
    },
    assignedFirmware: () => Promise.resolve(undefined),
  };
  return {
    repository: {
      devices: repository as unknown as DeviceRepository,
      serialKeys: { find: () => Promise.resolve(undefined) } as unknown as SerialKeysRepository,
      challenges: {} as ChallengeIssuer,
    },
    writes,
  };
}

const settings = {
  publicHost: '127.0.0.1',
  publicMqttPort: 1884,
  publicHttpUrl: 'http://127.0.0.1:8081',
  keepaliveSeconds: 240,
  timezoneOffsetMinutes: 0,
  registrationOpen: true,
  signingKey: 'k',
  activationMessage: 'Activate',
};

describe('a check-in the device gave up on', () => {
  it('records nothing when the device has hung up before the broker got to it', async () => {
    const { repository, writes } = fakeDevices();
    const device = newDeviceIdentity();
    const service = new OtaCheckInService(repository, settings);
    const result = await service.handle(
      checkInHeaders(device),
      Buffer.from(systemInfoBody(device)),
      '10.0.0.2',
      () => true,
    );
    expect(result).toEqual({ status: 'abandoned', deviceId: device.mac });
    expect(writes).toEqual([]);
  });

  it('records no boot report for an answer nobody will read, and answers normally otherwise', async () => {
    const { repository, writes } = fakeDevices();
    const device = newDeviceIdentity();
    const service = new OtaCheckInService(repository, settings);
    let checks = 0;
    const goneAfterFirstLook = () => ++checks > 1;
    const late = await service.handle(
      checkInHeaders(device),
      Buffer.from(systemInfoBody(device)),
      undefined,
      goneAfterFirstLook,
    );
    expect(late.status).toBe('abandoned');
    expect(writes).toEqual([]);

    const answered = await service.handle(
      checkInHeaders(device),
      Buffer.from(systemInfoBody(device)),
      undefined,
    );
    expect(answered).toMatchObject({ status: 200, outcome: 'registered' });
    expect(writes).toEqual([`create ${device.mac}`, `boot ${device.mac}`]);
  });
});
