import type { ImageCrash } from '../firmware/flash-slots';

/**
 * Ways a device can misbehave, per device or fleet-wide, changeable at run time. Probabilities are 0..1
 * (1 = always). None of these exist in the firmware; they exist so the platform's evidence can be tested.
 */
export interface FaultKnobs {
  /** MCP replies that are never published. */
  readonly dropReplies: number;
  /** Extra main-task time before each MCP reply (a slow callback: everything queued behind it waits too). */
  readonly replyDelayMs: number;
  /** State-changing tools answer "true" and change nothing (reboot and upgrade included: nothing happens). */
  readonly lie: boolean;
  /** MCP replies published cut short, so the payload is not JSON. */
  readonly brokenJson: number;
  /** Firmware downloads fail (the late "true" follows). */
  readonly failUpgrades: boolean;
  /**
   * Images written while set crash on their first boot (or never confirm themselves and are rolled back at the
   * next reboot), so the bootloader goes back to the old slot.
   */
  readonly rollbackUpgrades: ImageCrash | undefined;
  /** Drop the MQTT connection this often (esp-mqtt reconnects; no reboot, no OTA check-in). 0 = never. */
  readonly flapEveryMs: number;
  /** A reply replaced by what this returns for it, given the method it answers (a fuzzer's reply of any shape). */
  readonly rewriteReply: ((reply: string, method: string) => string) | undefined;
}

export const NO_FAULTS: FaultKnobs = Object.freeze({
  dropReplies: 0,
  replyDelayMs: 0,
  lie: false,
  brokenJson: 0,
  failUpgrades: false,
  rollbackUpgrades: undefined,
  flapEveryMs: 0,
  rewriteReply: undefined,
});

/** Fleet-wide knobs are shared by reference; a device's own settings sit on top of them. */
export class FaultSettings {
  private own: Partial<FaultKnobs> | undefined;

  constructor(
    private readonly fleet: { current: FaultKnobs },
    own?: Partial<FaultKnobs>,
  ) {
    this.own = own && Object.keys(own).length > 0 ? { ...own } : undefined;
  }

  get current(): FaultKnobs {
    return this.own ? { ...this.fleet.current, ...this.own } : this.fleet.current;
  }

  set(knobs: Partial<FaultKnobs>): void {
    this.own = { ...this.own, ...knobs };
  }

  clear(): void {
    this.own = undefined;
  }
}

export function happens(probability: number, random: () => number = Math.random): boolean {
  return probability >= 1 || (probability > 0 && random() < probability);
}
