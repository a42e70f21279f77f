import { z } from 'zod';
import { releaseHealth, type HealthSignal, type VersionSignals } from './release-health';

// Phased rollouts (DESIGN §3, in the manner of Memfault cohorts and Mender phases): a campaign runs as phases,
// a named canary set of devices, then cumulative percentages of its devices; each phase soaks after its last
// device settles and passes only when its gate, judged on release health (libs/domain release-health), holds.

/** What a phase must show after its soak; release health's own limits by default. */
export const phaseGateSchema = z.strictObject({
  /** Share of the upgrades so far that ended effect_mismatch (the device came back on another version). */
  maxEffectMismatchShare: z.number().min(0).max(1).default(0.02),
  /** Verified upgrades that a device later came back from on an older version (a crash after check-in). */
  maxRegressions: z.int().min(0).default(0),
  /** Share of the devices started so far that failed otherwise (a download that failed, no answer). */
  maxFailedShare: z.number().min(0).max(1).default(0.1),
});
export type PhaseGate = z.infer<typeof phaseGateSchema>;

export const campaignPhaseSchema = z
  .strictObject({
    name: z.string().min(1).max(100),
    /** A canary: exactly these devices (each must be one of the campaign's). */
    devices: z.array(z.string().min(1)).min(1).max(1000).optional(),
    /** The share of all the campaign's devices started once this phase is done (cumulative). */
    percent: z.number().gt(0).max(100).optional(),
    /** How long the phase's devices run after the last of them settled before its gate is judged. */
    soakS: z
      .int()
      .min(0)
      .max(30 * 24 * 3600)
      .default(3600),
    gate: phaseGateSchema.default({ maxEffectMismatchShare: 0.02, maxRegressions: 0, maxFailedShare: 0.1 }),
  })
  .refine(
    (p) => (p.devices === undefined) !== (p.percent === undefined),
    'give devices or percent, not both',
  );
export type CampaignPhase = z.infer<typeof campaignPhaseSchema>;

export const campaignPhasesSchema = z
  .array(campaignPhaseSchema)
  .min(1)
  .max(20)
  .refine((ps) => ps.at(-1)?.percent === 100, 'the last phase is percent 100 (every device gets a phase)')
  .refine((ps) => {
    const percents = ps.flatMap((p) => (p.percent === undefined ? [] : [p.percent]));
    return percents.every((v, i) => i === 0 || v > percents[i - 1]!);
  }, 'percentages grow from phase to phase')
  .refine((ps) => new Set(ps.map((p) => p.name)).size === ps.length, 'phase names are distinct');

/** How many of the campaign's devices phases 0..index hold together (a canary adds its devices). */
export function phaseQuota(
  phases: readonly CampaignPhase[],
  index: number,
  total: number,
  assignedBefore: number,
): number {
  const phase = phases[index]!;
  if (phase.devices) return assignedBefore + phase.devices.length;
  return Math.max(assignedBefore, Math.ceil((total * phase.percent!) / 100));
}

/** What the platform counted for the devices of phases 0..index (the repository's answer). */
export interface PhaseCounts {
  /** Devices of these phases not settled yet (pending, waiting for the device, in progress). */
  open: number;
  /** Devices of these phases that ended failed for another reason than coming back on another version. */
  failed: number;
  /** Devices of these phases that were started. */
  started: number;
}

export interface GateFinding {
  signal: HealthSignal | 'failed_share';
  value: number;
  detail: string;
}

/** The gate on release health: findings that break it (none: it holds). */
export function judgeGate(gate: PhaseGate, signals: VersionSignals, counts: PhaseCounts): GateFinding[] {
  const health = releaseHealth(signals, null, {
    minDevices: 1,
    minDeviceHours: 0,
    maxEffectMismatchShare: gate.maxEffectMismatchShare,
    maxRegressions: gate.maxRegressions,
    // A phase's gate judges its upgrades; the rates by device-hour belong to the release page.
    maxRatioToBaseline: Number.POSITIVE_INFINITY,
    floors: { reconnectsPerDeviceHour: Infinity, offlineShare: Infinity, callShare: Infinity },
  });
  const findings: GateFinding[] = health.findings.map((f) => ({
    signal: f.signal,
    value: f.value,
    detail: f.detail,
  }));
  const failedShare = counts.started > 0 ? counts.failed / counts.started : 0;
  if (failedShare > gate.maxFailedShare)
    findings.push({
      signal: 'failed_share',
      value: failedShare,
      detail: `${counts.failed} of ${counts.started} devices failed (limit ${(gate.maxFailedShare * 100).toFixed(1)} %)`,
    });
  return findings;
}

export type PhaseStep =
  | { kind: 'dispatch' }
  | { kind: 'soak_start' }
  | { kind: 'soaking'; remainingS: number }
  | { kind: 'fail'; findings: GateFinding[] }
  | { kind: 'pass' };

/**
 * What the runner does next with the current phase: start its devices until none is open, then soak, then
 * judge. A broken gate fails the phase as soon as it is seen after the last device settled (no need to wait out
 * the soak for a canary that already crashed); a gate that holds passes only after the whole soak.
 */
export function phaseStep(
  phase: CampaignPhase,
  counts: PhaseCounts,
  findings: GateFinding[],
  soakSince: Date | null,
  now: Date,
): PhaseStep {
  if (counts.open > 0) return { kind: 'dispatch' };
  if (soakSince === null) return { kind: 'soak_start' };
  if (findings.length > 0) return { kind: 'fail', findings };
  const remainingS = phase.soakS - (now.getTime() - soakSince.getTime()) / 1000;
  return remainingS > 0 ? { kind: 'soaking', remainingS } : { kind: 'pass' };
}

/** One entry of a campaign's phase log: how each gate ended, and who let a failed one go on. */
export const phaseLogEntrySchema = z.strictObject({
  phase: z.int(),
  name: z.string(),
  outcome: z.enum(['passed', 'failed', 'continued']),
  at: z.string(),
  detail: z.string(),
  by: z.string().optional(),
});
export type PhaseLogEntry = z.infer<typeof phaseLogEntrySchema>;

/** Dispatches one runner round may make: the campaign's own slots, within the platform's per-minute cap. */
export function capDispatches(slots: number, capPerMinute: number, dispatchedLastMinute: number): number {
  return Math.max(0, Math.min(slots, capPerMinute - dispatchedLastMinute));
}
