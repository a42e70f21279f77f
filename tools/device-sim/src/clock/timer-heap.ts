/** One pending callback in the heap; `fn` is cleared when it is cancelled (lazy deletion). */
interface Entry {
  at: number;
  seq: number;
  fn: (() => void) | undefined;
  inHeap: boolean;
}

/**
 * A binary min-heap of deadlines. At 10,000 devices one real Node timer for the earliest entry costs far less
 * than a Timeout object (and its closure) per device per timer. Cancelled entries are skipped when they reach the
 * top, and the heap is rebuilt when they outnumber the live ones.
 */
export class TimerHeap {
  private entries: Entry[] = [];
  private seq = 0;
  private dead = 0;

  /** Live (not cancelled, not yet fired) entries. */
  get live(): number {
    return this.entries.length - this.dead;
  }

  push(at: number, fn: () => void): () => void {
    if (this.dead > 1024 && this.dead > this.entries.length / 2) this.compact();
    const entry: Entry = { at, seq: this.seq++, fn, inHeap: true };
    this.entries.push(entry);
    this.up(this.entries.length - 1);
    return () => {
      if (entry.fn === undefined) return;
      entry.fn = undefined;
      // Still in the heap until it reaches the top or the next compaction.
      if (entry.inHeap) this.dead++;
    };
  }

  /** The earliest live deadline, dropping cancelled entries on the way. */
  peek(): number | undefined {
    while (this.entries.length > 0 && this.entries[0]?.fn === undefined) this.popTop();
    return this.entries[0]?.at;
  }

  /** Removes and returns every live callback due at `now`, earliest first. */
  takeDue(now: number): (() => void)[] {
    const due: (() => void)[] = [];
    for (let top = this.entries[0]; top !== undefined && top.at <= now; top = this.entries[0]) {
      this.popTop();
      if (top.fn) {
        due.push(top.fn);
        top.fn = undefined;
      }
    }
    return due;
  }

  private popTop(): void {
    const top = this.entries[0];
    if (top === undefined) return;
    top.inHeap = false;
    if (top.fn === undefined) this.dead--;
    const last = this.entries.pop();
    if (last === undefined || this.entries.length === 0) return;
    this.entries[0] = last;
    this.down(0);
  }

  private compact(): void {
    for (const e of this.entries) if (e.fn === undefined) e.inHeap = false;
    this.entries = this.entries.filter((e) => e.inHeap);
    this.dead = 0;
    for (let i = (this.entries.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private less(a: number, b: number): boolean {
    const x = this.entries[a]!;
    const y = this.entries[b]!;
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const t = this.entries[a]!;
    this.entries[a] = this.entries[b]!;
    this.entries[b] = t;
  }

  private up(i: number): void {
    for (let parent = (i - 1) >> 1; i > 0 && this.less(i, parent); parent = (i - 1) >> 1) {
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let min = i;
      if (l < this.entries.length && this.less(l, min)) min = l;
      if (r < this.entries.length && this.less(r, min)) min = r;
      if (min === i) return;
      this.swap(i, min);
      i = min;
    }
  }
}
