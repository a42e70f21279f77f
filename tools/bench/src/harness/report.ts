import { cpus, loadavg, totalmem } from 'node:os';
import { loadBenchConfig } from '../config';

const withoutWalFlush = () => loadBenchConfig().BENCH_SYNCHRONOUS_COMMIT === 'off';

/** The machine a figure was measured on, printed with every result. */
export function machine() {
  const list = cpus();
  return {
    cores: list.length,
    cpu: list[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
    loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
    // Said with every figure it changes: a run without the WAL flush is a diagnostic, not the product.
    ...(withoutWalFlush() ? { synchronousCommit: 'off' } : {}),
  };
}

/**
 * A scenario's output: one JSON document on stdout (for scripts and for docs/BENCHMARKS.md) and the readable
 * summary on stderr, so `> result.json` keeps only the JSON.
 */
export function printResult(scenario: string, result: unknown, summary: string[]): void {
  process.stdout.write(`${JSON.stringify({ scenario, machine: machine(), result })}\n`);
  const diagnostic = withoutWalFlush()
    ? ['DIAGNOSTIC RUN: synchronous_commit = off on the bench database (commits not waited for)']
    : [];
  process.stderr.write(`\n${[...diagnostic, ...summary].join('\n')}\n`);
}

/** A plain text table with right-aligned numbers. */
export function table(header: string[], rows: (string | number)[][]): string[] {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)];
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Progress lines go to stderr, so stdout holds only the result. */
export function say(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}
