import { evidenceHash, GENESIS_HASH, type ChainLink } from './evidence-chain';

export type ChainProblem = 'hash_mismatch' | 'prev_hash_mismatch' | 'seq_gap' | 'head_mismatch';

/** One link of a device's chain as stored: an evidence row or a seal. */
export interface StoredLink {
  deviceId: string;
  seq: string;
  callId: string;
  stage: ChainLink;
  payload: unknown;
  prevHash: string;
  hash: string;
  /** ISO 8601 with milliseconds. */
  createdAt: string;
}

export interface ChainBreak {
  deviceId: string;
  seq: string;
  callId: string;
  stage: ChainLink;
  problem: ChainProblem;
  detail: string;
}

/** Where a device's walk starts: the hash the first link must point at, and the seq before it. */
export interface ChainStart {
  prevHash: string;
  seq: bigint;
}

/**
 * DESIGN §6: re-walks device chains link by link, in (device, seq) order, recomputing each hash from the link's
 * content. Names the first link of each device where its chain breaks: content that no longer matches its hash,
 * a link or a sequence cut, or a recorded head the chain does not pass through. Pure: the API's integrity check
 * feeds it pages from the database, the offline verifier the rows of an export.
 */
export class ChainWalk {
  private readonly broken = new Map<string, ChainBreak>();
  private readonly seen = new Set<string>();
  private current = { deviceId: '', prevHash: GENESIS_HASH, seq: 0n };
  links = 0;
  headsChecked = 0;

  constructor(
    /** A recorded head at (device, seq), if any: the chain must pass through it. */
    private readonly headAt: (deviceId: string, seq: string) => string | undefined = () => undefined,
    /** Where a device's chain starts; a whole chain starts at GENESIS_HASH before its first link. */
    private readonly startOf: (deviceId: string, first: StoredLink) => ChainStart = (_d, first) => ({
      prevHash: GENESIS_HASH,
      seq: BigInt(first.seq) - 1n,
    }),
  ) {}

  /** Feeds the next link; returns the device's first break when this link is it. */
  next(link: StoredLink): ChainBreak | undefined {
    this.links++;
    if (link.deviceId !== this.current.deviceId) {
      this.seen.add(link.deviceId);
      const start = this.startOf(link.deviceId, link);
      this.current = { deviceId: link.deviceId, prevHash: start.prevHash, seq: start.seq };
    }
    const head = this.headAt(link.deviceId, link.seq);
    if (head !== undefined) this.headsChecked++;
    const problem = this.broken.has(link.deviceId) ? undefined : this.check(link, head);
    if (problem) this.broken.set(link.deviceId, problem);
    // Go on from what is stored, so one broken link does not hide whether the rest still links up.
    this.current = { deviceId: link.deviceId, prevHash: link.hash, seq: BigInt(link.seq) };
    return problem;
  }

  get devices(): number {
    return this.seen.size;
  }

  /** The first break of each broken chain, in the order the devices were walked. */
  breaks(): ChainBreak[] {
    return [...this.broken.values()];
  }

  private check(link: StoredLink, head: string | undefined): ChainBreak | undefined {
    const at = (problem: ChainProblem, detail: string): ChainBreak => ({
      deviceId: link.deviceId,
      seq: link.seq,
      callId: link.callId,
      stage: link.stage,
      problem,
      detail,
    });
    const expected = this.current.seq + 1n;
    if (BigInt(link.seq) !== expected) return at('seq_gap', `seq ${expected} is missing before it`);
    if (link.prevHash !== this.current.prevHash)
      return at('prev_hash_mismatch', 'its link does not point at the one before it');
    const computed = evidenceHash(this.current.prevHash, link);
    if (computed !== link.hash) return at('hash_mismatch', 'its content no longer matches its hash');
    if (head !== undefined && head !== link.hash)
      return at('head_mismatch', 'a recorded chain head disagrees');
    return undefined;
  }
}
