import { lintProbes, type LintMessage } from '../test/lint-probes';
import { CALL_STATE_WRITES } from '../test/probes/call-state.probes';
import { DATA_ACCESS_IMPORTS } from '../test/probes/data-access.probes';
import { MODULE_BOUNDARIES } from '../test/probes/module-boundaries.probes';
import type { ProbeSet } from '../test/probes/probe-set';
import { VERDICT_LITERALS } from '../test/probes/verdict-literals.probes';

// Every rule's probes are linted in one ESLint run: each run starts a type-aware program over the workspace,
// which is most of its cost.
const SETS: readonly ProbeSet[] = [
  MODULE_BOUNDARIES,
  CALL_STATE_WRITES,
  VERDICT_LITERALS,
  DATA_ACCESS_IMPORTS,
];

let messagesOf: (path: string) => LintMessage[];

beforeAll(() => {
  messagesOf = lintProbes(SETS.flatMap((set) => set.probes));
}, 180_000);

describe.each(SETS.map((set) => [set.rule, set] as const))('%s', (_rule, set) => {
  const refusals = (path: string) =>
    messagesOf(path).filter((m) => m.ruleId === set.ruleId && (!set.message || set.message.test(m.message)));

  it('refuses what breaks it, says where the code belongs, and lets the rest pass', () => {
    const outcome = set.probes.map((p) => ({
      probe: p.why,
      flagged: refusals(p.path).length > 0,
      ...(p.says && { says: refusals(p.path).some((m) => p.says!.test(m.message)) }),
    }));
    expect(outcome).toEqual(
      set.probes.map((p) => ({ probe: p.why, flagged: p.flagged, ...(p.says && { says: true }) })),
    );
  });
});
