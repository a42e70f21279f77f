import type { CaseResult } from './tally';

/** Pure: docs/RELIABILITY.md from a run of the long suite. */
export function reliabilityReport(
  results: CaseResult[],
  run: { date: string; load: string; devices: number },
): string {
  const ok = (r: CaseResult) =>
    r.callsLost === 0 &&
    r.callsSentTwice === 0 &&
    r.turnsAnswered === r.turnsAsked &&
    r.campaignSettled === r.campaignDevices;
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.callsAsked} | ${r.callsSealed} | ${r.callsLost} | ${r.callsSentTwice} | ` +
      `${r.campaignSettled}/${r.campaignDevices} | ${r.turnsAnswered}/${r.turnsAsked} | ${r.recoverySeconds.toFixed(1)} | ` +
      `${r.slowestAnswerMs} | ${ok(r) ? 'yes' : '**no**'} |`,
  );
  const verdicts = results.map(
    (r) =>
      `| ${r.name} | ${Object.entries(r.verdicts)
        .map(([v, n]) => `${v} ${n}`)
        .join(', ')} | ${r.notes.join('; ') || ''} |`,
  );
  return [
    '# Reliability: the faults the platform survives',
    '',
    'Written by `npm run chaos` (tools/chaos): the four services as processes from `dist/`, a simulated fleet, operator',
    'calls and voice turns from text a few a second through the admin API (retried with the same `Idempotency-Key`',
    'while refused), a campaign of verified `set_volume` over the fleet, and one fault at a time. The bar: 0 calls',
    'lost, 0 sent twice (counted at the simulated devices by JSON-RPC id), every campaign device settled, every',
    'voice turn answered (its reply, or an apology).',
    '',
    `Run ${run.date}, ${run.devices} devices, on the shared 2-core machine (load average before the run: ${run.load}).`,
    '',
    '| fault | calls asked | sealed | lost | sent twice | campaign settled | turns answered | recovery (s) | slowest API answer (ms) | bar met |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'Recovery: from the end of the fault (the restart, the link restored) until a new call asked then was verified',
    'end to end. Slowest API answer: the longest any request of the load waited for an answer (a 503 is one).',
    '',
    '| fault | verdicts of the calls asked | notes |',
    '|---|---|---|',
    ...verdicts,
    '',
  ].join('\n');
}
