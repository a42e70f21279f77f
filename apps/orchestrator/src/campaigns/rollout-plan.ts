import type { CampaignRollout } from '@fleet/domain';

/** The size of wave k: the ramp's initial size times factor^k, capped at batchSize; batchSize without a ramp. */
export function waveSize(rollout: CampaignRollout, k: number): number {
  if (!rollout.ramp) return rollout.batchSize;
  return Math.min(
    rollout.batchSize,
    Math.max(1, Math.floor(rollout.ramp.initialBatchSize * rollout.ramp.factor ** k)),
  );
}

export interface RolloutState {
  /** Targets started at least once. */
  started: number;
  inProgress: number;
  /** Targets started in the last minute (for ratePerMinute). */
  startedLastMinute: number;
}

/**
 * How many more devices to start now (DESIGN §3: batch size or rate, at most N in flight, optional ramp). A wave
 * starts only when the previous one has finished; within a wave, at most maxInFlight run at once.
 */
export function devicesToStart(rollout: CampaignRollout, s: RolloutState): number {
  let done = 0;
  let k = 0;
  while (done + waveSize(rollout, k) <= s.started) done += waveSize(rollout, k++);
  const startedInWave = s.started - done;
  if (startedInWave === 0 && s.inProgress > 0) return 0; // the previous wave is still running
  let allowed = Math.min(waveSize(rollout, k) - startedInWave, rollout.maxInFlight - s.inProgress);
  if (rollout.ratePerMinute !== undefined)
    allowed = Math.min(allowed, rollout.ratePerMinute - s.startedLastMinute);
  return Math.max(0, allowed);
}
