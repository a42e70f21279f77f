/** Postgres' deadlock_detected: the statement or transaction was chosen to give way, and nothing of it was written. */
const DEADLOCK_DETECTED = '40P01';
const DEADLOCK_ATTEMPTS = 3;

/**
 * Runs `write` again when Postgres rolled it back to break a deadlock, up to three attempts in all. For writes
 * that can run again as they are: the broker's presence batches and the orchestrator's discovery units lock the
 * same device rows in orders of their own, and when two meet one of them is rolled back (docs/BENCHMARKS.md §12).
 */
export async function retriedOnDeadlock<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if ((err as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= DEADLOCK_ATTEMPTS) throw err;
    }
  }
}
