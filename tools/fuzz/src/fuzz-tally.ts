/** What one fuzz target saw: how many cases, how each was answered, and what broke. */
export interface TargetTally {
  target: string;
  /** The input a case sends, for the report. */
  input: string;
  cases: number;
  /** How the service answered, by kind (`close 1009`, `http 400`, `connack 5`, `dropped`, ...). */
  outcomes: Record<string, number>;
  /** Refusal counters' growth on the service's /metrics over the target's run. */
  counted: number;
  /** Cases the service refused explicitly (it answered or closed): each must be counted. */
  refused: number;
  /** The property's counterexample, when one was found. */
  failure?: string;
  seed: number;
}

export function newTally(target: string, input: string, seed: number): TargetTally {
  return { target, input, cases: 0, outcomes: {}, counted: 0, refused: 0, seed };
}

/** One case's answer; `times` inputs when the case sent several (datagrams), each of which counts. */
export function recordOutcome(tally: TargetTally, outcome: string, refused: boolean, times = 1): void {
  tally.cases += times;
  tally.outcomes[outcome] = (tally.outcomes[outcome] ?? 0) + times;
  if (refused) tally.refused += times;
}

/** Pure: the fuzz section of docs/RELIABILITY.md, from one `npm run fuzz`. */
export function fuzzSection(
  tallies: TargetTally[],
  run: { date: string; load: string; runsPerTarget: number; seconds: number },
): string {
  const top = (outcomes: Record<string, number>) =>
    Object.entries(outcomes)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
  const rows = tallies.map(
    (t) =>
      `| ${t.target} | ${t.input} | ${t.cases} | ${t.refused} | ${t.counted} | ${top(t.outcomes)} | ` +
      `${t.failure ? `**${t.failure.replace(/\|/g, '\\|').slice(0, 200)}**` : 'none'} |`,
  );
  return [
    '## Fuzzing: every input a device or a stranger controls',
    '',
    'Written by `npm run fuzz` (tools/fuzz): the broker, the orchestrator and the admin API as processes from',
    '`dist/`, a xiaozhi and a ListenAI bystander answering calls throughout, and fast-check properties over each',
    'input. Each case must leave every service up (`/healthz` 200), be refused and counted on `/metrics` when it is',
    'bad, and leave the bystanders’ calls verified (none lost). A bounded run of the same properties is part of',
    '`npm test`.',
    '',
    `Run ${run.date}: ${run.runsPerTarget} property runs per target (a run may send several inputs), ` +
      `${run.seconds.toFixed(0)} s, on the shared 2-core machine (load average before: ${run.load}). ` +
      `Seeds: ${tallies.map((t) => `${t.target} ${t.seed}`).join(', ')}.`,
    '',
    '| target | input | cases | refused | counted | answered as (most frequent) | counterexample |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...FOUND,
  ].join('\n');
}

/** What fuzzing found, fixed or not (kept by hand: a run only adds counterexamples to the table). */
const FOUND = [
  '### Found by fuzzing',
  '',
  '- Fixed: a ListenAI link refused for its token was kept open 2 s with no error listener on its socket; one',
  '  frame over the size limit, unmasked, with invalid UTF-8 or reserved bits in that window threw an unhandled',
  '  error and stopped the broker, and with it (under `npm start`) the whole platform.',
  '- Fixed: a xiaozhi reply holding `\\u0000` (or a lone surrogate) was never sealed: the evidence statement failed',
  '  on text Postgres cannot store and the call stayed open. Such characters are now stored as U+FFFD, the raw',
  '  bytes kept exact in base64.',
  '- Fixed: a tools/list page listing a tool whose text Postgres cannot store left its discovery unended and',
  "  uncounted; such a tool is now left out whole (named among the page's skipped entries), and a catalog the",
  '  database refuses ends its discovery counted as failed.',
  "- Fixed: the admin API's refusals of unparsable bodies and queries were answered 400 but not counted",
  '  (`admin_api_client_errors_total`).',
  '',
];
