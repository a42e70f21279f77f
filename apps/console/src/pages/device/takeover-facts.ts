import { TAKEOVERS_AN_HOUR_OF_CONCERN, type DeviceDetail, type Takeover } from '@fleet/api-contract';

/** What the Takeovers card says about one takeover beyond its time and addresses. */
export interface TakeoverMarks {
  /** The connection that took over came from another address than the one it displaced. */
  otherAddress: boolean;
  /** It carried another Client-Id (fingerprints differ). */
  otherClientId: boolean;
}

/** Pure: how one takeover differs from the connection it replaced. */
export function takeoverMarks(t: Takeover): TakeoverMarks {
  return {
    otherAddress: t.byAddress !== null && t.displacedAddress !== null && t.byAddress !== t.displacedAddress,
    otherClientId:
      t.byClientIdFingerprint !== null && t.byClientIdFingerprint !== t.displacedClientIdFingerprint,
  };
}

/** Pure: whether the last hour's takeovers are more than a flaky network explains (the fleet's alert agrees). */
export function foughtOver(takeovers: DeviceDetail['takeovers']): boolean {
  return takeovers.lastHour > TAKEOVERS_AN_HOUR_OF_CONCERN;
}

/** Pure: every address the last day's takeovers came from or displaced, in first-seen order. */
export function takeoverAddresses(recent: Takeover[]): string[] {
  const seen = new Set<string>();
  for (const t of recent) {
    for (const address of [t.displacedAddress, t.byAddress]) if (address !== null) seen.add(address);
  }
  return [...seen];
}
