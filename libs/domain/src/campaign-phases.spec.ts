import {
  campaignPhasesSchema,
  capDispatches,
  judgeGate,
  phaseQuota,
  phaseStep,
  type CampaignPhase,
} from './campaign-phases';
import type { VersionSignals } from './release-health';

const phases: CampaignPhase[] = campaignPhasesSchema.parse([
  { name: 'canary', devices: ['a', 'b', 'c'], soakS: 600 },
  { name: 'quarter', percent: 25, soakS: 600 },
  { name: 'all', percent: 100, soakS: 0 },
]);
const gate = phases[0]!.gate;

const signals = (verified: number, effectMismatch: number, regressions = 0): VersionSignals => ({
  version: '2.7.0',
  devices: verified + effectMismatch,
  deviceHours: 0,
  upgrades: { verified, effectMismatch, failed: 0 },
  regressions,
  reconnects: 0,
  offlineHours: 0,
  calls: { total: 0, deviceError: 0, noResponse: 0 },
});

describe('phased rollouts', () => {
  it('refuses phases whose last one does not reach every device, or whose percentages shrink', () => {
    expect(campaignPhasesSchema.safeParse([{ name: 'canary', devices: ['a'] }]).success).toBe(false);
    expect(
      campaignPhasesSchema.safeParse([
        { name: 'half', percent: 50 },
        { name: 'quarter', percent: 25 },
        { name: 'all', percent: 100 },
      ]).success,
    ).toBe(false);
    expect(campaignPhasesSchema.safeParse([{ name: 'x', devices: ['a'], percent: 100 }]).success).toBe(false);
  });

  it('gives a canary its devices and each percentage its cumulative share of the fleet', () => {
    expect(phaseQuota(phases, 0, 1000, 0)).toBe(3);
    expect(phaseQuota(phases, 1, 1000, 3)).toBe(250);
    expect(phaseQuota(phases, 2, 1000, 250)).toBe(1000);
    // a canary larger than the percentage after it: the phase starts nobody new
    expect(phaseQuota(phases, 1, 8, 3)).toBe(3);
  });

  it('breaks the gate on a crash before check-in (effect_mismatch), a regression, or failed devices', () => {
    expect(judgeGate(gate, signals(0, 3), { open: 0, failed: 0, started: 3 }).map((f) => f.signal)).toEqual([
      'effect_mismatch_share',
    ]);
    expect(
      judgeGate(gate, signals(3, 0, 1), { open: 0, failed: 0, started: 3 }).map((f) => f.signal),
    ).toEqual(['regressions']);
    expect(judgeGate(gate, signals(8, 0), { open: 0, failed: 2, started: 10 }).map((f) => f.signal)).toEqual([
      'failed_share',
    ]);
    expect(judgeGate(gate, signals(100, 1), { open: 0, failed: 0, started: 101 })).toEqual([]);
  });

  it('dispatches while devices are open, then soaks, fails at once on a broken gate, passes after the soak', () => {
    const t0 = new Date('2026-12-07T04:00:00Z');
    const later = (s: number) => new Date(t0.getTime() + s * 1000);
    const open = { open: 2, failed: 0, started: 3 };
    const settled = { open: 0, failed: 0, started: 3 };
    const broken = [{ signal: 'regressions' as const, value: 1, detail: '' }];
    expect(phaseStep(phases[0]!, open, broken, null, t0).kind).toBe('dispatch');
    expect(phaseStep(phases[0]!, settled, [], null, t0).kind).toBe('soak_start');
    expect(phaseStep(phases[0]!, settled, [], t0, later(599))).toEqual({ kind: 'soaking', remainingS: 1 });
    expect(phaseStep(phases[0]!, settled, [], t0, later(600)).kind).toBe('pass');
    expect(phaseStep(phases[0]!, settled, broken, t0, later(1)).kind).toBe('fail');
  });

  it('keeps a round within the per-minute dispatch cap', () => {
    expect(capDispatches(500, 10_000, 9_800)).toBe(200);
    expect(capDispatches(500, 10_000, 10_200)).toBe(0);
    expect(capDispatches(50, 10_000, 0)).toBe(50);
  });
});
