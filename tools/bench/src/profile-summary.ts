// Self time of a `node --cpu-prof` profile by function and by package, for docs/BENCHMARKS.md.
//   node dist/tools/bench/src/profile-summary.js <file.cpuprofile> [--top 25]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { summarizeCpuProfile, type CpuProfile } from './harness/cpu-profile-summary';
import { table } from './harness/report';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
for (const file of positionals) {
  const summary = summarizeCpuProfile(
    JSON.parse(readFileSync(file, 'utf8')) as CpuProfile,
    Number(values.top),
  );
  const rows = (list: typeof summary.places) =>
    list.map((s) => [s.name, s.ms, `${(s.share * 100).toFixed(1)} %`]);
  process.stdout.write(
    [
      `${file}: ${summary.busyMs} ms busy`,
      ...table(['by package', 'self ms', 'share'], rows(summary.places)),
      '',
      ...table(['by function', 'self ms', 'share'], rows(summary.functions)),
      '',
    ].join('\n'),
  );
}
