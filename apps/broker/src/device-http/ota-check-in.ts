import { randomBytes, randomInt } from 'node:crypto';
import {
  buildOtaResponse,
  hashClientId,
  readOtaCheckIn,
  type HeaderBag,
  type OtaCheckIn,
  type OtaResponse,
  type OtaResponseInput,
} from '@fleet/protocol';
import type { ChallengeIssuer } from '../activation/challenge-issuer';
import type { SerialKeysRepository } from '../activation/serial-keys.repository';
import type {
  AssignedFirmware,
  BootFacts,
  DeviceRecord,
  DeviceRepository,
  FirstSightRecord,
} from '../devices/device-repository';
import { issueCredentials } from './device-credentials';
import type { UpgradeRegressionWatch } from '../devices/upgrade-regression-watch';
import { decideIdentity, identityChangesOf, sameIdentity, type IdentityClaim } from './identity-decision';

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
  | 'credentials'
  | 'registered'
  | 'activation_pending'
  | 'proof_required'
  /** Its address had all the activation challenges it may have for now: it is told to try again. */
  | 'proof_rate_limited'
  | 'quarantined'
  | 'refused_revoked'
  | 'invalid_client_id'
  | 'no_identity';

export type CheckInResult =
  | { status: 400; error: string }
  /** The device closed the connection while it waited (an overloaded broker): nothing was recorded. */
  | { status: 'abandoned'; deviceId: string }
  | { status: 200; body: OtaResponse; outcome: CheckInOutcome; checkIn: OtaCheckIn; deviceId: string };

/** What the boot report of this answer records, if anything (a device that is not registered has no row). */
type BootRecord =
  | 'none'
  | 'report'
  | (Pick<BootFacts, 'issuedMqttClientIdHash' | 'identityChanges'> & {
      /** What the device row said it ran before this check-in (for the regression watch). */
      previousVersion?: string | null;
    });

export interface CheckInDeps {
  devices: DeviceRepository;
  serialKeys: SerialKeysRepository;
  challenges: Pick<ChallengeIssuer, 'issue' | 'ttlMs'>;
  /** DESIGN §5: each reported version is held against the upgrades verified before it. */
  regressions?: Pick<UpgradeRegressionWatch, 'seen'>;
}

/**
 * POST /xiaozhi/ota/ (xiaozhi §4, DESIGN §3). Answers 200 whenever Device-Id is usable: a non-200 makes a device
 * back off for hours and a freshly flashed image roll back. What looked wrong is recorded, not refused.
 */
export class OtaCheckInService {
  constructor(
    private readonly deps: CheckInDeps,
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
    const reply = (
      outcome: CheckInOutcome,
      input: OtaResponseInput,
      record: BootRecord,
      firmwareOffered?: unknown,
    ) => this.answer(mac, checkIn, remoteAddress, outcome, input, record, firmwareOffered);
    // Without a usable Client-Id there is no client id to issue: answer the time only (the device keeps NVS).
    const uuid = checkIn.uuid;
    if (!uuid) return reply(checkIn.clientIdRefused ? 'invalid_client_id' : 'no_identity', {}, 'none');
    const clientIdHash = hashClientId(uuid);

    const found = await this.deps.devices.findForCheckIn(mac);
    let device = found.device;
    let assigned = found.assigned;
    if (gone()) return abandoned;
    const claim: IdentityClaim = {
      clientIdHash,
      serialNumber: checkIn.serialNumber,
      serialKeyImported: false,
    };
    if (claim.serialNumber !== undefined && !(device && sameIdentity(device, claim))) {
      claim.serialKeyImported = (await this.deps.serialKeys.find(claim.serialNumber)) !== undefined;
    }
    const decision = decideIdentity(device, claim);
    let outcome: CheckInOutcome = 'credentials';
    switch (decision.kind) {
      case 'proof_required': {
        const { outcome: proof, activation } = await this.challenge(mac, claim, checkIn, remoteAddress);
        return reply(proof, { activation }, device ? 'report' : 'none');
      }
      case 'quarantine':
        // DESIGN §3: nobody takes over a device by POSTing its MAC; the bound device keeps working meanwhile.
        await this.deps.devices.quarantine({
          mac,
          clientIdHash,
          serialNumber: checkIn.serialNumber,
          remoteAddress,
          body: checkIn.systemInfo,
        });
        return reply('quarantined', {}, 'report');
      case 'first_sight': {
        const registered = await this.register(mac, clientIdHash, checkIn.serialNumber);
        device = registered;
        // A row this check-in created has no firmware assigned (an assignment needs the row); one that a
        // concurrent check-in created may have, by now.
        assigned = registered.created ? undefined : await this.deps.devices.assignedFirmware(mac);
        outcome = device.status === 'active' ? 'registered' : 'activation_pending';
        break;
      }
      case 'bound':
        break;
    }
    if (!device) throw new Error(`device ${mac} has no row after its first sight`);
    switch (device.status) {
      case 'revoked':
      case 'decommissioned':
        return reply('refused_revoked', {}, 'report');
      case 'awaiting_activation':
        return reply('activation_pending', { activation: this.activationCode(device) }, {});
      case 'active':
        break;
    }
    const { clientIdHash: issuedHash, ...credentials } = issueCredentials(
      mac,
      uuid,
      checkIn.boardType,
      remoteAddress,
      this.settings.signingKey,
    );
    const firmware = await this.firmwareOffer(mac, checkIn.firmwareVersion, assigned);
    if (gone()) return abandoned;
    return reply(
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
      {
        previousVersion: device.firmwareVersion,
        issuedMqttClientIdHash: issuedHash,
        identityChanges: identityChangesOf(device, {
          board: checkIn.boardType,
          chipModel: chipModelOf(checkIn.systemInfo),
        }),
      },
      firmware,
    );
  }

  private register(
    mac: string,
    clientIdHash: string,
    serialNumber: string | undefined,
  ): Promise<FirstSightRecord> {
    if (this.settings.registrationOpen) {
      return this.deps.devices.createOnFirstSight({ mac, clientIdHash, serialNumber, status: 'active' });
    }
    return this.deps.devices.createOnFirstSight({
      mac,
      clientIdHash,
      serialNumber,
      status: 'awaiting_activation',
      activationCode: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      activationChallenge: randomBytes(16).toString('hex'),
    });
  }

  private activationCode(device: DeviceRecord): OtaResponseInput['activation'] {
    const code = device.activationCode ?? '000000';
    // xiaozhi §4.3: a code always comes with a challenge, or the device retries /activate forever.
    return {
      code,
      message: `${this.settings.activationMessage}\n${code}`,
      challenge: device.activationChallenge ?? device.id,
      timeoutMs: 30_000,
    };
  }

  /** Activation v2 (xiaozhi §4.3): a challenge without a code; the device answers it with its eFuse HMAC. */
  private async challenge(
    mac: string,
    claim: IdentityClaim,
    checkIn: OtaCheckIn,
    remoteAddress: string | undefined,
  ): Promise<{ outcome: CheckInOutcome; activation: OtaResponseInput['activation'] }> {
    const challenge = await this.deps.challenges.issue(
      { mac, clientIdHash: claim.clientIdHash, serialNumber: claim.serialNumber!, body: checkIn.systemInfo },
      remoteAddress,
    );
    if (challenge === undefined) {
      // xiaozhi §4.3: given a challenge, the device tries /activate 10 times 3 s apart (202 each time for one that
      // was never stored), then checks in again: asked again in ~30 s. Without an `activation` section it would
      // carry on without credentials until its next boot.
      return {
        outcome: 'proof_rate_limited',
        activation: {
          message: 'Too many activation attempts from this network; trying again shortly',
          challenge: randomBytes(16).toString('hex'),
          timeoutMs: 30_000,
        },
      };
    }
    return {
      outcome: 'proof_required',
      activation: { message: 'Verifying this device', challenge, timeoutMs: this.deps.challenges.ttlMs },
    };
  }

  /** The assigned firmware when the device does not already run it (`force` is never left at 1). */
  private async firmwareOffer(
    mac: string,
    running: string | undefined,
    assigned: AssignedFirmware | undefined,
  ): Promise<OtaResponseInput['firmware']> {
    if (!assigned || assigned.version === running) return undefined;
    await this.deps.devices.markFirmwareOffered(mac);
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
    record: BootRecord,
    firmwareOffered: unknown,
  ): Promise<CheckInResult> {
    const serverTime = {
      timestampMs: Date.now(),
      timezoneOffsetMinutes: this.settings.timezoneOffsetMinutes,
    };
    const built = buildOtaResponse({ serverTime, ...input });
    // Our own answer breaking the firmware's rules is a bug here, never the device's fault: fall back to the time.
    const body = built.ok ? built.value : { server_time: { timestamp: Date.now(), timezone_offset: 0 } };
    const complaints = built.ok
      ? checkIn.complaints
      : [...checkIn.complaints, { field: 'answer', problem: built.error.message }];
    if (checkIn.uuid && record !== 'none') {
      const { previousVersion, ...facts } = record === 'report' ? { previousVersion: undefined } : record;
      // Only a check-in of the bound identity (one that gets an answer meant for it) updates the device row.
      await this.deps.devices.recordBoot({
        mac,
        clientIdHash: hashClientId(checkIn.uuid),
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
        updatesDevice: record !== 'report',
        ...facts,
      });
      if (record !== 'report' && previousVersion !== undefined) {
        // Not awaited: the device's answer does not wait for the lookup (rare: only a version drop queries).
        void this.deps.regressions?.seen({
          mac,
          previousVersion,
          reportedVersion: checkIn.firmwareVersion,
          reportedOtaLabel: checkIn.otaLabel,
          at: new Date(),
        });
      }
    }
    return { status: 200, body, outcome, checkIn, deviceId: mac };
  }
}

function chipModelOf(info: Record<string, unknown> | undefined): string | undefined {
  const chip = info?.['chip_model_name'];
  return typeof chip === 'string' ? chip : undefined;
}
