/** Why a new connection was turned away at accept. */
export type BudgetRefusal = 'per_address' | 'open_files';

export interface BudgetLimits {
  /** Connections not yet authenticated, across every device-facing listener. */
  pendingMax: number;
  /** Of those, from one address (an IPv6 /64). */
  pendingPerAddress: number;
  /** Device-facing connections open at once, authenticated or not: what the open-file limit leaves for them. */
  openMax: number;
}

/** A connection as the budget sees it: where it comes from. */
export interface BudgetEntry {
  readonly address: string;
}

export type Admission<T> = { ok: true; evicted?: T } | { ok: false; reason: BudgetRefusal };

/**
 * The edge's connection budget, as counts only (no sockets, no timers). A connection is pending from its accept
 * until it authenticates, open until it closes. An address already holding its share of pending slots is refused:
 * one stranger cannot crowd out anyone else. When the pending total or the open ceiling is reached, the connection
 * that has been pending longest makes room for the new one: a crowd of strangers who never finish a handshake must
 * then open connections faster than a device finishes its own to keep it out, where refusing newcomers would let
 * a few hundred connections a second lock every device out. Only with nothing pending to give way is a newcomer
 * refused (`open_files`): what is left belongs to Postgres, Redis and the devices already in.
 */
export class ConnectionBudget<T extends BudgetEntry> {
  /** Insertion order is age order: the first is the longest pending. */
  private readonly pending = new Set<T>();
  private readonly pendingByAddress = new Map<string, number>();
  private open = 0;

  constructor(readonly limits: BudgetLimits) {}

  admit(entry: T): Admission<T> {
    if ((this.pendingByAddress.get(entry.address) ?? 0) >= this.limits.pendingPerAddress) {
      return { ok: false, reason: 'per_address' };
    }
    let evicted: T | undefined;
    if (this.pending.size >= this.limits.pendingMax || this.open >= this.limits.openMax) {
      evicted = this.pending.values().next().value;
      if (evicted === undefined) return { ok: false, reason: 'open_files' };
      // Counted as closed now: its socket is destroyed at once, its descriptor with it.
      this.release(evicted);
    }
    this.pending.add(entry);
    this.pendingByAddress.set(entry.address, (this.pendingByAddress.get(entry.address) ?? 0) + 1);
    this.open++;
    return evicted === undefined ? { ok: true } : { ok: true, evicted };
  }

  /** The connection authenticated: its pending slot is free again; it stays open. */
  settle(entry: T): void {
    if (!this.pending.delete(entry)) return;
    const fromAddress = this.pendingByAddress.get(entry.address) ?? 0;
    if (fromAddress <= 1) this.pendingByAddress.delete(entry.address);
    else this.pendingByAddress.set(entry.address, fromAddress - 1);
  }

  /** The connection closed (or gave way to a newer one). */
  release(entry: T): void {
    this.settle(entry);
    this.open--;
  }

  isPending(entry: T): boolean {
    return this.pending.has(entry);
  }

  get counts(): { pending: number; open: number; addresses: number } {
    return { pending: this.pending.size, open: this.open, addresses: this.pendingByAddress.size };
  }
}
