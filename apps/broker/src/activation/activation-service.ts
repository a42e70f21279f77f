import {
  hashClientId,
  openEfuseKey,
  readActivationRequest,
  readOtaHeaders,
  verifyActivationHmac,
  type HeaderBag,
  type WrappingKey,
} from '@fleet/protocol';
import type { DeviceRepository } from '../devices/device-repository';
import type { ActivationChallengesRepository } from './activation-challenges.repository';
import type { ProofBindingRepository } from './proof-binding.repository';
import type { SerialKeysRepository } from './serial-keys.repository';

/** A metric label each: why /activate answered as it did (the device learns only 200 or 202). */
export type ActivationOutcome =
  | 'proved'
  | 'bound'
  | 'pending'
  | 'unproven'
  | 'malformed_body'
  | 'unknown_challenge'
  | 'expired_challenge'
  | 'identity_mismatch'
  | 'no_key'
  | 'bad_hmac'
  | 'serial_in_use'
  | 'other_serial'
  | 'revoked';

export type ActivationResult =
  { status: 400; error: string } | { status: 200 | 202; outcome: ActivationOutcome; mac: string };

/**
 * POST /xiaozhi/ota/activate (xiaozhi §4.3, DESIGN §3). 200 only for a caller that proved something: the HMAC of
 * an outstanding challenge under the eFuse key of the serial it was issued to, or (a device without a serial)
 * the Client-Id of a device an operator activated. Everything else answers the same 202, so a stranger cannot
 * tell a registered MAC from an unknown one.
 */
export class ActivationService {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly challenges: ActivationChallengesRepository,
    private readonly serialKeys: SerialKeysRepository,
    private readonly binding: ProofBindingRepository,
    private readonly wrappingKeys: readonly WrappingKey[],
  ) {}

  async handle(headerBag: HeaderBag, body: Buffer | undefined): Promise<ActivationResult> {
    const { headers } = readOtaHeaders(headerBag);
    const mac = headers.deviceId;
    if (!mac) return { status: 400, error: 'Device-Id header is missing or is not a MAC address' };
    const answer = (outcome: ActivationOutcome): ActivationResult => ({
      status: outcome === 'proved' || outcome === 'bound' ? 200 : 202,
      outcome,
      mac,
    });
    const request = readActivationRequest(body);
    if (!request.ok) return answer('malformed_body');
    const clientIdHash = headers.clientId === undefined ? undefined : hashClientId(headers.clientId);
    if (request.value.kind === 'plain') {
      const device = await this.devices.find(mac);
      if (!device || clientIdHash === undefined || device.clientIdHash !== clientIdHash)
        return answer('unproven');
      return answer(device.status === 'active' ? 'bound' : 'pending');
    }
    const proof = request.value;
    const claim = await this.challenges.take(proof.challenge);
    if (!claim) return answer('unknown_challenge');
    if (claim.expired) return answer('expired_challenge');
    if (
      claim.mac !== mac ||
      claim.clientIdHash !== clientIdHash ||
      claim.serialNumber !== proof.serialNumber
    ) {
      return answer('identity_mismatch');
    }
    const key = await this.efuseKeyOf(proof.serialNumber);
    if (!key) return answer('no_key');
    if (!verifyActivationHmac(key, proof.challenge, proof.hmac)) return answer('bad_hmac');
    const bound = await this.binding.bind(claim);
    switch (bound) {
      case 'registered':
      case 'rebound':
      case 'unchanged':
      case 'activated':
        return answer('proved');
      case 'serial_in_use':
      case 'other_serial':
      case 'revoked':
        return answer(bound);
    }
  }

  private async efuseKeyOf(serialNumber: string): Promise<Buffer | undefined> {
    const sealed = await this.serialKeys.find(serialNumber);
    const wrapping = sealed && this.wrappingKeys.find((k) => k.id === sealed.wrappingKeyId);
    if (!sealed || !wrapping) return undefined;
    const opened = openEfuseKey(wrapping, serialNumber, sealed.sealedKey);
    return opened.ok ? opened.value : undefined;
  }
}
