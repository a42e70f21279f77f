import { isDatabaseUnavailable } from '../client/unreachable';

/**
 * Group commit for one-row statements that many callers make at about the same time (DESIGN §6 does the same for
 * evidence): what arrives together goes out as one statement. A one-row statement's round trip, parse and commit
 * is a large part of what a check-in, a CONNECT or a call's load costs, on both sides; in the 10,000-device storm
 * of docs/BENCHMARKS.md §1 a boot went from 5.9 Postgres commits to 2.5–2.8, and Postgres' CPU per boot from
 * 1.9 ms to 1.1–1.4 ms. The broker's device registry and the orchestrator's call loads use it.
 *
 * By default no timer decides a batch: at most `maxInFlight` batches run at once, and whatever arrives meanwhile
 * waits for the next one. An idle service sends a lone request at once (after the current turn of the event loop);
 * a busy one sends bigger batches, as many requests as arrived during one round trip. Every caller still gets its
 * own answer, once its own row is committed.
 *
 * One input must never fail the others: a statement carries every input of its batch, so one that Postgres refuses
 * (a NUL in a text, a row a constraint rejects) fails it for all. After a failed batch each input therefore runs
 * alone, in order, and only the failing one's caller sees the error. Not when the failure is the database's own
 * (unreachable, every connection busy): each input would only fail again, and wait again.
 *
 * `gatherMs` is for work nobody waits on a person for (a fleet powering on): a batch then also waits that long
 * for company after its first request. At 500 check-ins a second a round trip holds one or two devices; a window
 * of a few milliseconds makes each statement carry several, and Postgres' cost is mostly per statement.
 */
export class TurnBatcher<I, O> {
  private pending: Waiter<I, O>[] = [];
  private scheduled = false;
  private inFlight = 0;
  private gathering: NodeJS.Timeout | undefined;

  constructor(
    /** Runs one batch; answers in input order. */
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly options: {
      maxBatch?: number;
      maxInFlight?: number;
      /**
       * After a failed batch, run each input alone, so one bad input fails only its own caller (the default).
       * `false` only where a batch can fail for reasons of the whole only (a Redis pipeline of our own entries).
       */
      retrySingly?: boolean;
      /** How long a batch waits after its first request for others to join it (a full batch goes at once). */
      gatherMs?: number;
    } = {},
  ) {}

  submit(input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.gathering && this.pending.length >= (this.options.maxBatch ?? 500)) {
        clearTimeout(this.gathering);
        this.flush();
        return;
      }
      this.schedule();
    });
  }

  /** `waited`: what is pending arrived while a batch ran, so it has gathered already. */
  private schedule(waited = false): void {
    if (this.scheduled || this.pending.length === 0 || this.inFlight >= (this.options.maxInFlight ?? 2))
      return;
    this.scheduled = true;
    const gatherMs = this.options.gatherMs ?? 0;
    if (!waited && gatherMs > 0 && this.pending.length < (this.options.maxBatch ?? 500)) {
      this.gathering = setTimeout(() => this.flush(), gatherMs);
    } else {
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.scheduled = false;
    this.gathering = undefined;
    const maxBatch = this.options.maxBatch ?? 500;
    while (this.pending.length > 0 && this.inFlight < (this.options.maxInFlight ?? 2)) {
      const batch = this.pending.splice(0, maxBatch);
      this.inFlight++;
      void this.runBatch(batch).finally(() => {
        this.inFlight--;
        this.schedule(true);
      });
    }
  }

  private async runBatch(batch: Waiter<I, O>[]): Promise<void> {
    try {
      const outputs = await this.run(batch.map((b) => b.input));
      batch.forEach((b, i) => b.resolve(outputs[i]!));
    } catch (err) {
      if (this.options.retrySingly === false || batch.length === 1 || isDatabaseUnavailable(err)) {
        for (const b of batch) b.reject(err);
        return;
      }
      // In order, so two rows of one device still land in the order they came.
      for (const b of batch) await this.runBatch([b]);
    }
  }
}

interface Waiter<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (err: unknown) => void;
}
