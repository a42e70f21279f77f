// Scenario 4 (docs/BENCHMARKS.md §4): evidence writes per second at the store. Evidence rows of read calls (five per call,
// hash-chained per device) written as the orchestrator writes them: a group commit of many calls per transaction
// under a lease locked FOR KEY SHARE, as the application role, into a freshly migrated database, for a few batch sizes
// and numbers of concurrent writers. The orchestrator's own rate under load is in scenario 2 (evidence rows/s).
//   npm run bench:evidence-writes -- [--calls 10000] [--devices 1000] [--batches 1,10,200] [--writers 1,4]
//                                    [--quiet-wait-sec 60]
import { parseArgs } from 'node:util';
import { loadBenchConfig } from './config';
import { printResult, say, table } from './harness/report';
import { runEvidenceCase, type EvidenceCase, type EvidenceCaseResult } from './evidence/evidence-run';
import { percentiles } from './platform/latency';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      calls: { type: 'string', default: '10000' },
      devices: { type: 'string', default: '1000' },
      batches: { type: 'string', default: '1,10,200' },
      writers: { type: 'string', default: '1,4' },
      'quiet-wait-sec': { type: 'string', default: '60' },
    },
  });
  const config = loadBenchConfig();
  const list = (s: string) => s.split(',').map(Number);
  const cases: EvidenceCase[] = [];
  for (const writers of list(values.writers))
    for (const batch of list(values.batches)) cases.push({ batch, writers });
  const results: EvidenceCaseResult[] = [];
  for (const c of cases) {
    results.push(
      await runEvidenceCase(config, c, {
        calls: Number(values.calls),
        devices: Number(values.devices),
        quietWaitMs: Number(values['quiet-wait-sec']) * 1000,
      }),
    );
  }
  printResult('evidence-writes', results, summary(results));
}

function summary(results: EvidenceCaseResult[]): string[] {
  return [
    'Evidence writes at the store: five hash-chained rows per call, group-committed under a lease (FOR KEY SHARE),',
    "as the application role, through the orchestrator's own writer (@fleet/db CommitQueue, one INSERT per batch).",
    '',
    ...table(
      [
        'calls/tx',
        'writers',
        'rows/s',
        'calls/s',
        'commit p50 / p95 / p99 ms',
        'pg CPU ms/1k rows',
        'writer CPU ms/1k rows',
        'chains ok',
      ],
      results.map((r) => [
        r.batch,
        r.writers,
        r.rowsPerSecond,
        r.callsPerSecond,
        percentiles(r.commitMs),
        r.cpuMsPer1000Rows.postgres,
        r.cpuMsPer1000Rows.writer,
        `${r.chainsWithoutGaps}/${r.rowsStored === r.rows ? 'all rows' : `${r.rowsStored} rows`}`,
      ]),
    ),
  ];
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
