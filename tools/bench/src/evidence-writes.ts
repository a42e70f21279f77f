// Scenario 4 (docs/BENCHMARKS.md §4): evidence writes per second at the store. Evidence rows of read calls (five per call,
// hash-chained per device) written as the orchestrator writes them: a group commit of many calls per transaction
// under a lease locked FOR KEY SHARE, as the application role, into a freshly migrated database, for a few batch sizes
// and numbers of concurrent writers. The orchestrator's own rate under load is in scenario 2 (evidence rows/s).
// Each call ends with its seal link; `--sign off,on` runs every case with unsigned seals, then with seals signed by
// an orchestrator key (Ed25519 over the seal's hash), back to back, so the cost of signing is read in one run.
//   npm run bench:evidence-writes -- [--calls 10000] [--devices 1000] [--batches 1,10,200] [--writers 1,4]
//                                    [--sign off,on] [--partitions 0] [--rounds 1] [--quiet-wait-sec 60]
// `--partitions 0,4,25 --rounds 3` alternates the plain table (0) with the one db:partition-evidence makes, here with
// 4 and with 25 monthly partitions, three times, so they are compared on the same machine in one run
// (docs/BENCHMARKS.md §16).
import { createHash, generateKeyPairSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sealSigner } from '@fleet/audit-export';
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
      sign: { type: 'string', default: 'off,on' },
      partitions: { type: 'string', default: '0' },
      rounds: { type: 'string', default: '1' },
      'quiet-wait-sec': { type: 'string', default: '60' },
    },
  });
  const config = loadBenchConfig();
  const list = (s: string) => s.split(',').map(Number);
  const cases: EvidenceCase[] = [];
  const signs = values.sign.split(',').map((s) => {
    if (s !== 'on' && s !== 'off') throw new Error('--sign takes on, off or both (off,on)');
    return s === 'on';
  });
  const layouts = list(values.partitions);
  if (layouts.some((n) => !Number.isInteger(n) || n < 0 || n === 1))
    throw new Error('--partitions takes 0 (the plain table) or counts of 2 and more');
  for (let round = 0; round < Number(values.rounds); round++)
    for (const partitions of layouts)
      for (const writers of list(values.writers))
        for (const batch of list(values.batches))
          for (const signed of signs) cases.push({ batch, writers, signed, partitions });
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
  const signing = signingCost();
  printResult('evidence-writes', { cases: results, signing }, [
    ...summary(results),
    '',
    `Signing alone (Ed25519 over a seal's hash, in this process): ${signing.microsecondsPerSeal} µs per seal, ` +
      `${signing.sealsPerSecond} seals/s on one core.`,
  ]);
}

/** The CPU a seal's signature costs the writer, without the database: the floor of what signing adds per call. */
function signingCost(n = 20_000): { microsecondsPerSeal: number; sealsPerSecond: number } {
  const sign = sealSigner(generateKeyPairSync('ed25519').privateKey).sign;
  const hashes = Array.from({ length: n }, (_, i) => createHash('sha256').update(String(i)).digest('hex'));
  for (const h of hashes.slice(0, 1_000)) sign(h);
  const started = performance.now();
  for (const h of hashes) sign(h);
  const ms = performance.now() - started;
  return {
    microsecondsPerSeal: Math.round((ms * 1000 * 10) / n) / 10,
    sealsPerSecond: Math.round(n / (ms / 1000)),
  };
}

function summary(results: EvidenceCaseResult[]): string[] {
  return [
    'Evidence writes at the store: five hash-chained rows and a seal link per call, group-committed under a lease',
    "(FOR KEY SHARE), as the application role, through the orchestrator's own writer (@fleet/db CommitQueue, one",
    'INSERT per batch); each case with seals unsigned, then signed with an Ed25519 orchestrator key.',
    '',
    ...table(
      [
        'calls/tx',
        'writers',
        'seals',
        'table',
        'sealed calls/s',
        'rows/s',
        'commit p50 / p95 / p99 ms',
        'pg CPU ms/1k rows',
        'writer CPU ms/1k rows',
        'chains ok',
      ],
      results.map((r) => [
        r.batch,
        r.writers,
        r.signed ? 'signed' : 'unsigned',
        r.partitions > 0 ? `${r.partitions} monthly` : 'plain',
        r.callsPerSecond,
        r.rowsPerSecond,
        percentiles(r.commitMs),
        r.cpuMsPer1000Rows.postgres,
        r.cpuMsPer1000Rows.writer,
        `${r.chainsWithoutGaps}/${r.rowsStored === r.rows ? 'all rows' : `${r.rowsStored} rows`}`,
      ]),
    ),
    ...conversions(results),
  ];
}

/** What converting each plain table afterwards took: the time writers would wait on its lock. */
function conversions(results: EvidenceCaseResult[]): string[] {
  const done = results.flatMap((r) => (r.conversion ? [r.conversion] : []));
  if (done.length === 0) return [];
  return [
    '',
    'Conversion of the plain table afterwards (db:partition-evidence, one transaction): ' +
      done
        .map((c) => `${c.rows} rows in ${c.ms} ms (${Math.round(c.rows / (c.ms / 1000))} rows/s)`)
        .join('; '),
  ];
}

main().catch((err: unknown) => {
  say((err as Error).stack ?? String(err));
  process.exit(1);
});
