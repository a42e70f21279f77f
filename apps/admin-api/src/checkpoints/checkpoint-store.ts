import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EvidenceLog, formatLogEntries, parseLogEntries } from '@fleet/audit-export';
import { parseCheckpoint, parseNote } from '@fleet/transparency';

/**
 * The evidence log's directory, outside Postgres (DESIGN §6): what a database role cannot rewrite, and what a
 * witness reads. `entries.jsonl` holds the tree's leaves in order (every node of any proof is recomputed from them),
 * `checkpoint` the latest signed checkpoint, `checkpoints/<size>` every one ever published. Writers take a lock
 * directory, so API replicas sharing the directory append one at a time.
 */
export class CheckpointStore {
  constructor(readonly dir: string) {}

  /** The log as far as its latest checkpoint, and that checkpoint (null before the first). */
  async load(): Promise<{ log: EvidenceLog; latest: string | null; size: number }> {
    const latest = await readText(join(this.dir, 'checkpoint'));
    const size = latest === null ? 0 : parseCheckpoint(parseNote(latest).text).size;
    const text = (await readText(join(this.dir, 'entries.jsonl'))) ?? '';
    // Entries past the checkpoint are from a writer that stopped before publishing: not part of the log.
    const entries = parseLogEntries(text).slice(0, size);
    if (entries.length !== size)
      throw new Error(`the log directory holds ${entries.length} of ${size} entries`);
    return { log: new EvidenceLog(entries), latest, size };
  }

  /** The published checkpoint of the largest size below `size`, if any. */
  async before(size: number): Promise<{ note: string; size: number } | null> {
    const sizes = (await readdir(join(this.dir, 'checkpoints')).catch(() => []))
      .filter((n) => /^(0|[1-9][0-9]*)$/.test(n))
      .map(Number)
      .filter((n) => n < size)
      .sort((a, b) => b - a);
    const previous = sizes[0];
    if (previous === undefined) return null;
    const note = await readText(join(this.dir, 'checkpoints', String(previous)));
    return note === null ? null : { note, size: previous };
  }

  /** Entries first, then the checkpoint: a reader never sees a checkpoint whose leaves are not there. */
  async publish(log: EvidenceLog, note: string): Promise<void> {
    await mkdir(join(this.dir, 'checkpoints'), { recursive: true });
    await writeAtomically(join(this.dir, 'entries.jsonl'), formatLogEntries(log.entries));
    await writeAtomically(join(this.dir, 'checkpoints', String(log.size)), note);
    await writeAtomically(join(this.dir, 'checkpoint'), note);
  }

  /** Runs `work` holding the directory's lock (a lock older than STALE_MS is a writer that died). */
  async locked<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(this.dir, { recursive: true });
    const lock = join(this.dir, '.lock');
    for (;;) {
      try {
        await mkdir(lock);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const age = await stat(lock).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (age > STALE_MS) await rm(lock, { recursive: true, force: true });
        else await sleep(20);
      }
    }
    try {
      return await work();
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

const STALE_MS = 60_000;

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}
