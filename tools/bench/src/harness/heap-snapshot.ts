import { readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The signal a service started with `heapSnapshotArgs` writes a heap snapshot on (Node's own handler). */
const SIGNAL = 'SIGTTIN';

/** Node options that make a service write a V8 heap snapshot into `dir` when it receives the signal. */
export function heapSnapshotArgs(dir: string): string[] {
  return [`--heapsnapshot-signal=${SIGNAL}`, `--diagnostic-dir=${dir}`];
}

/**
 * Asks a service started with `heapSnapshotArgs(dir)` for a heap snapshot (V8 collects garbage first) and waits
 * until the file is whole; it is renamed `<label>.heapsnapshot` and its path answered.
 */
export async function takeHeapSnapshot(
  pid: number,
  dir: string,
  label: string,
  timeoutMs = 300_000,
): Promise<string> {
  const before = new Set(snapshots(dir));
  process.kill(pid, SIGNAL);
  const deadline = Date.now() + timeoutMs;
  let lastSize = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const file = snapshots(dir).find((f) => !before.has(f));
    if (file) {
      const size = statSync(join(dir, file)).size;
      // Node writes the snapshot in one go from its main thread: a size unchanged for a second is the whole file.
      if (size > 0 && size === lastSize) {
        const path = join(dir, `${label}.heapsnapshot`);
        renameSync(join(dir, file), path);
        return path;
      }
      lastSize = size;
    }
    if (Date.now() > deadline) throw new Error(`no heap snapshot from ${pid} within ${timeoutMs} ms`);
  }
}

function snapshots(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.startsWith('Heap.') && f.endsWith('.heapsnapshot'));
}
