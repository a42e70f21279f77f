// What a device costs in a service's heap: two V8 heap snapshots (`npm run bench:sizing -- --heap-snapshots`
// writes one with no device and one with the fleet discovered), grouped by constructor or type, the growth per
// device largest first, with who holds the nodes of the largest groups.
//   node --max-old-space-size=4096 dist/tools/bench/src/heap-growth.js <before.heapsnapshot> <after.heapsnapshot>
//        <devices> [--top 25] [--paths 8]
import { parseArgs } from 'node:util';
import { say, table } from './harness/report';
import { growth, parseHeapSnapshot } from './sizing/heap-snapshot-groups';

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' }, paths: { type: 'string', default: '8' } },
  });
  const [beforePath, afterPath, units] = positionals;
  if (!beforePath || !afterPath || !Number(units))
    throw new Error('usage: heap-growth <before> <after> <devices>');
  const before = parseHeapSnapshot(beforePath);
  const after = parseHeapSnapshot(afterPath);
  const grown = growth(before.groups, after.groups, Number(units));
  const total = grown.reduce((sum, g) => sum + g.bytesPerUnit, 0);
  const lines = [
    `heap growth per device (self sizes): ${(total / 1024).toFixed(1)} KB`,
    ...table(
      ['group', 'nodes/device', 'bytes/device'],
      grown
        .slice(0, Number(values.top))
        .map((g) => [g.key, g.countPerUnit.toFixed(1), g.bytesPerUnit.toFixed(0)]),
    ),
    '',
    'held by (first strong retainer, towards the roots):',
    ...grown
      .slice(0, Number(values.paths))
      .flatMap((g) => [`${g.key}:`, ...after.retainerPaths(g.key).map((p) => `  ${p}`)]),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

try {
  main();
} catch (err) {
  say((err as Error).stack ?? String(err));
  process.exit(1);
}
