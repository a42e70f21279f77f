import { randomBytes, randomInt } from 'node:crypto';
import {
  buildOtaResponse,
  readOtaCheckIn,
  type HeaderBag,
  type OtaCheckIn,
  type OtaResponse,
  type OtaResponseInput,
} from '@fleet/protocol';
import type { DeviceRecord, DeviceRepository } from '../devices/device-repository';
import { issueCredentials } from './device-credentials';

export interface OtaSettings {
  publicHost: string;
  publicMqttPort: number;
  publicHttpUrl: string;
  keepaliveSeconds: number;
  timezoneOffsetMinutes: number;
  registrationOpen: boolean;
  signingKey: string;
  /** Where an operator binds a code; shown on the device's screen with the code. */
  activationMessage: string;
}

export type CheckInOutcome =
  'credentials' | 'registered' | 'activation_pending' | 'quarantined' | 'refused_revoked' | 'no_identity';

export type CheckInResult =
  | { status: 400; error: string }
  /** The device closed the connection while it waited (an overloaded broker): nothing was recorded. */
  | { status: 'abandoned'; deviceId: string }
  | { status: 200; body: OtaResponse; outcome: CheckInOutcome; checkIn: OtaCheckIn; deviceId: string };

/**
 * POST /xiaozhi/ota/ (xiaozhi §4, DESIGN §3). Answers 200 whenever Device-Id is usable: a non-200 makes a device
 * back off for hours and a freshly flashed image roll back. What looked wrong is recorded, not refused.
 */
export class OtaCheckInService {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly settings: OtaSettings,
  ) {}

  /**
   * `gone` says whether the device has hung up. Under a storm a check-in can wait longer than the firmware's
   * HTTP timeout; the device then retries, and finishing the abandoned one would only record a boot nobody got
   * an answer for and take the broker's time from the check-ins still waiting.
   */
  async handle(
    headers: HeaderBag,
    body: Buffer | undefined,
    remoteAddress: string | undefined,
    gone: () => boolean = () => false,
  ): Promise<CheckInResult> {
    const checkIn = readOtaCheckIn({ headers, body });
    const mac = checkIn.headers.deviceId;
    if (!mac) return { status: 400, error: 'Device-Id header is missing or is not a MAC address' };
    const abandoned: CheckInResult = { status: 'abandoned', deviceId: mac };
    if (gone()) return abandoned;
    const uuid = checkIn.uuid;
    const serverTime: OtaResponseInput['serverTime'] = {
      timestampMs: Date.now(),
      timezoneOffsetMinutes: this.settings.timezoneOffsetMinutes,
    };
    const answer = (
      outcome: CheckInOutcome,
      input: OtaResponseInput,
      updatesDevice: boolean,
      firmwareOffered?: unknown,
    ) =>
      this.answer(
        mac,
        checkIn,
        remoteAddress,
        outcome,
        { serverTime, ...input },
        updatesDevice,
        firmwareOffered,
      );

    // Without a uuid there is no client id to issue: answer the time only (the device keeps its NVS config).
    if (!uuid) return answer('no_identity', {}, false);

    let device = await this.devices.find(mac);
    if (gone()) return abandoned;
    let outcome: CheckInOutcome = 'credentials';
    if (!device) {
      device = await this.register(mac, uuid, checkIn.serialNumber);
      outcome = device.status === 'active' ? 'registered' : 'activation_pending';
    }
    if (!sameIdentity(device, uuid, checkIn.serialNumber)) {
      // DESIGN §3: nobody takes over a device by POSTing its MAC; the bound device keeps working meanwhile.
      await this.devices.quarantine({
        mac,
        clientId: uuid,
        serialNumber: checkIn.serialNumber,
        remoteAddress,
        body: checkIn.systemInfo,
      });
      return answer('quarantined', {}, false);
    }
    switch (device.status) {
      case 'revoked':
      case 'decommissioned':
        return answer('refused_revoked', {}, false);
      case 'awaiting_activation':
        return answer('activation_pending', { activation: this.activation(device) }, true);
      case 'active':
        break;
    }
    const credentials = issueCredentials(
      mac,
      uuid,
      checkIn.boardType,
      remoteAddress,
      this.settings.signingKey,
    );
    const firmware = await this.firmwareOffer(mac, checkIn.firmwareVersion);
    if (gone()) return abandoned;
    return answer(
      outcome,
      {
        mqtt: {
          host: this.settings.publicHost,
          port: this.settings.publicMqttPort,
          ...credentials,
          keepalive: this.settings.keepaliveSeconds,
        },
        ...(firmware ? { firmware } : {}),
      },
      true,
      firmware,
    );
  }

  private register(mac: string, uuid: string, serialNumber: string | undefined): Promise<DeviceRecord> {
    if (this.settings.registrationOpen) {
      return this.devices.createOnFirstSight({ mac, clientId: uuid, serialNumber, status: 'active' });
    }
    return this.devices.createOnFirstSight({
      mac,
      clientId: uuid,
      serialNumber,
      status: 'awaiting_activation',
      activationCode: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      activationChallenge: randomBytes(16).toString('hex'),
    });
  }

  private activation(device: DeviceRecord): OtaResponseInput['activation'] {
    const code = device.activationCode ?? '000000';
    // xiaozhi §4.3: a code always comes with a challenge, or the device retries /activate forever.
    return {
      code,
      message: `${this.settings.activationMessage}\n${code}`,
      challenge: device.activationChallenge ?? device.id,
      timeoutMs: 30_000,
    };
  }

  /** The assigned firmware when the device does not already run it (`force` is never left at 1). */
  private async firmwareOffer(
    mac: string,
    running: string | undefined,
  ): Promise<OtaResponseInput['firmware']> {
    const assigned = await this.devices.assignedFirmware(mac);
    if (!assigned || assigned.version === running) return undefined;
    await this.devices.markFirmwareOffered(mac);
    return {
      version: assigned.version,
      url: `${this.settings.publicHttpUrl}/firmware/${assigned.sha256}.bin`,
    };
  }

  private async answer(
    mac: string,
    checkIn: OtaCheckIn,
    remoteAddress: string | undefined,
    outcome: CheckInOutcome,
    input: OtaResponseInput,
    updatesDevice: boolean,
    firmwareOffered: unknown,
  ): Promise<CheckInResult> {
    const built = buildOtaResponse(input);
    // Our own answer breaking the firmware's rules is a bug here, never the device's fault: fall back to the time.
    const body = built.ok ? built.value : { server_time: { timestamp: Date.now(), timezone_offset: 0 } };
    const complaints = built.ok
      ? checkIn.complaints
      : [...checkIn.complaints, { field: 'answer', problem: built.error.message }];
    if (checkIn.uuid) {
      await this.devices.recordBoot({
        mac,
        clientId: checkIn.uuid,
        firmwareVersion: checkIn.firmwareVersion,
        board: checkIn.boardType,
        boardName: checkIn.boardName,
        otaLabel: checkIn.otaLabel,
        chipModel: chipModelOf(checkIn.systemInfo),
        remoteAddress,
        userAgent: checkIn.headers.userAgent?.raw,
        body: checkIn.systemInfo ?? null,
        complaints,
        firmwareOffered,
        updatesDevice,
      });
    }
    return { status: 200, body, outcome, checkIn, deviceId: mac };
  }
}

function sameIdentity(device: DeviceRecord, uuid: string, serialNumber: string | undefined): boolean {
  if (device.clientId !== uuid) return false;
  // A serial number, once bound, must match; a device that never sent one may not start now unnoticed.
  return device.serialNumber === null ? serialNumber === undefined : device.serialNumber === serialNumber;
}

function chipModelOf(info: Record<string, unknown> | undefined): string | undefined {
  const chip = info?.['chip_model_name'];
  return typeof chip === 'string' ? chip : undefined;
}
