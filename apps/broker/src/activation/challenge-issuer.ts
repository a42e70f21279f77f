import { randomBytes } from 'node:crypto';
import type { ActivationChallengesRepository, ChallengeClaim } from './activation-challenges.repository';
import type { ChallengeRateLimits } from './challenge-rate-limits';

/** A label each of broker_activation_challenges_total. */
export type ChallengeOutcome = 'issued' | 'renewed' | 'displaced' | 'rate_limited';

export interface ChallengeSettings {
  /** How long a challenge may be answered. */
  ttlMs: number;
  /** Outstanding challenges per MAC (one per Client-Id); past it the oldest is dropped. */
  perMac: number;
}

/**
 * Gives a check-in that must prove its eFuse key a challenge of its own (activation v2, xiaozhi §4.3), within the
 * rate limits of its address, and counts what that did to the MAC's other challenges.
 */
export class ChallengeIssuer {
  constructor(
    private readonly challenges: Pick<ActivationChallengesRepository, 'issue'>,
    private readonly limits: Pick<ChallengeRateLimits, 'allow'>,
    private readonly settings: ChallengeSettings,
    private readonly count: (outcome: ChallengeOutcome, n?: number) => void,
  ) {}

  get ttlMs(): number {
    return this.settings.ttlMs;
  }

  /** The challenge to send, or undefined when the address has had its share for now. */
  async issue(claim: ChallengeClaim, remoteAddress: string | undefined): Promise<string | undefined> {
    if (!(await this.limits.allow(claim.mac, remoteAddress))) {
      this.count('rate_limited');
      return undefined;
    }
    const challenge = randomBytes(16).toString('hex');
    const effect = await this.challenges.issue(claim, challenge, this.settings.ttlMs, this.settings.perMac);
    this.count(effect.renewed ? 'renewed' : 'issued');
    if (effect.displaced > 0) this.count('displaced', effect.displaced);
    return challenge;
  }
}
