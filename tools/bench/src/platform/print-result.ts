import { machine } from '../harness/report';

/**
 * The platform scenarios' output: one JSON document on stdout (for scripts and for docs/BENCHMARKS.md) and the
 * readable summary on stderr, so `> result.json` keeps only the JSON.
 */
export function printResult(scenario: string, result: unknown, summary: string[]): void {
  process.stdout.write(`${JSON.stringify({ scenario, machine: machine(), result })}\n`);
  process.stderr.write(`\n${summary.join('\n')}\n`);
}
