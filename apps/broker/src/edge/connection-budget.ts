/** Why a new connection was turned away at accept. */
export type BudgetRefusal = 'per_address' | 'pending_total' | 'open_files';

export interface BudgetLimits {
  /** Connections not yet authenticated, across every device-facing listener. */
  pendingMax: number;
  /** Of those, from one address (an IPv6 /64). */
  pendingPerAddress: number;
  /** Device-facing connections open at once, authenticated or not: what the open-file limit leaves for them. */
  openMax: number;
}

/**
 * The edge's connection budget, as counts only (no sockets, no timers): a connection is admitted when its address,
 * the broker's pending total and the open-file ceiling all have room; it is pending until it authenticates, open
 * until it closes. A stranger who never finishes a handshake holds at most `pendingPerAddress` slots from one
 * address, and a crowd of strangers at most `pendingMax`, which leaves descriptors for the devices that do.
 */
export class ConnectionBudget {
  private pending = 0;
  private open = 0;
  private readonly pendingByAddress = new Map<string, number>();

  constructor(readonly limits: BudgetLimits) {}

  /** Takes a pending slot for a new connection from `address`, or says why there is none. */
  admit(address: string): BudgetRefusal | undefined {
    if (this.open >= this.limits.openMax) return 'open_files';
    if (this.pending >= this.limits.pendingMax) return 'pending_total';
    const fromAddress = this.pendingByAddress.get(address) ?? 0;
    if (fromAddress >= this.limits.pendingPerAddress) return 'per_address';
    this.pendingByAddress.set(address, fromAddress + 1);
    this.pending++;
    this.open++;
    return undefined;
  }

  /** The connection authenticated: its pending slot is free again, it stays open. */
  settle(address: string): void {
    this.releasePending(address);
  }

  /** The connection closed; `pending` says whether it never authenticated. */
  release(address: string, pending: boolean): void {
    if (pending) this.releasePending(address);
    this.open--;
  }

  get counts(): { pending: number; open: number; addresses: number } {
    return { pending: this.pending, open: this.open, addresses: this.pendingByAddress.size };
  }

  private releasePending(address: string): void {
    const fromAddress = this.pendingByAddress.get(address) ?? 0;
    if (fromAddress <= 1) this.pendingByAddress.delete(address);
    else this.pendingByAddress.set(address, fromAddress - 1);
    this.pending--;
  }
}
