import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { exited } from './child-process';

/**
 * `perf record` of one process (Linux perf, call graphs). V8's --cpu-prof samples wall time, so a thread that
 * waits in a syscall while Postgres runs looks busy there; perf counts CPU. Run the process with
 * `--perf-basic-prof` so JavaScript frames have names; read with `perf report -i <file> --children`.
 */
export function perfRecord(
  pid: number,
  outDir: string,
  name = 'perf.data',
): { file: string; stop(): Promise<void> } {
  const file = join(outDir, name);
  const child = spawn('perf', ['record', '-F', '499', '-g', '-p', String(pid), '-o', file], {
    stdio: 'ignore',
  });
  return {
    file,
    async stop() {
      child.kill('SIGINT');
      await exited(child);
    },
  };
}
