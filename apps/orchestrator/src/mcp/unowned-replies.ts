import { decodeMcpReply, decodeUplinkWrapper, type Dialect } from '@fleet/protocol';
import { durableIdOf } from './dialect-wire';
import type { UplinkBytes } from './mcp-link';

interface Kept {
  mac: string;
  at: number;
  /** The broker's wrapper as it came: decoded only if a takeover asks for it (most never are). */
  payload: Buffer;
}

/**
 * The MCP replies this replica heard for devices of partitions it does not own, kept for one lease lifetime. Every
 * replica hears every uplink (fleet-subscriber); when a replica dies between sending a request and pairing its
 * reply, the reply reached the others while nobody owned the partition. The replica that takes the partition over
 * asks here for the reply of each call it resumes, so a call the device answered is not sealed `no_response`.
 * Bounded by age and count: a flood of uplinks costs at most `maxKept` buffers.
 */
export class UnownedReplies {
  private readonly queue: Kept[] = [];
  private head = 0;

  constructor(
    private readonly keepMs: number,
    private readonly maxKept = 20_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.queue.length - this.head;
  }

  keep(mac: string, wrapper: Buffer): void {
    this.queue.push({ mac, at: this.now(), payload: wrapper });
    this.evict();
  }

  /**
   * The reply with this durable id that came on the connection the request went out on (DESIGN §3: a reply from
   * another connection pairs with nothing), removed once taken.
   */
  take(mac: string, dialect: Dialect, id: number, connectionId: string): UplinkBytes | undefined {
    this.evict();
    for (let i = this.queue.length - 1; i >= this.head; i--) {
      const kept = this.queue[i]!;
      if (kept.mac !== mac) continue;
      const wrapper = decodeUplinkWrapper(kept.payload);
      if (!wrapper.ok || wrapper.value.connectionId !== connectionId) continue;
      const bytes = Buffer.from(wrapper.value.bytes);
      const reply = decodeMcpReply(dialect, bytes);
      const wireId = reply.ok ? reply.value.id : reply.error.id;
      if (durableIdOf(dialect, wireId) !== id) continue;
      this.queue.splice(i, 1);
      return {
        mac,
        connectionId,
        receivedAt: new Date(wrapper.value.receivedAt),
        bytes,
        traceparent: wrapper.value.traceparent,
      };
    }
    return undefined;
  }

  private evict(): void {
    const oldest = this.now() - this.keepMs;
    while (this.size > 0 && (this.size > this.maxKept || this.queue[this.head]!.at < oldest)) this.head++;
    // Compact now and then rather than shifting on every eviction.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }
}
