import { consistencyProof, inclusionProof, leafHash, rootOf, type Hash } from '@fleet/transparency';

// DESIGN §6: the evidence log. Every signed seal link is a leaf of one append-only RFC 6962 Merkle tree, appended
// checkpoint by checkpoint in a stable order (device id, then seq); a signed checkpoint commits to the tree, so a
// chain rewritten after it, or a second history shown to someone else, no longer fits the root a witness cosigned.
// A seal's hash covers its chain back to genesis, so its leaf commits to its call's five rows and all before them.

/** One leaf: a seal link, by where it is in its device's chain and what its hash is. */
export interface LogEntry {
  deviceId: string;
  seq: string;
  hash: string;
}

/** The leaf's bytes: one line per field, so no two entries share a leaf. */
export function logLeaf(e: LogEntry): Hash {
  return leafHash(Buffer.from(`voice-fleet.seal/1\n${e.deviceId}\n${e.seq}\n${e.hash}\n`, 'utf8'));
}

export class LogFormatError extends Error {}

/** The tree's entries as stored beside its checkpoints: one JSON object a line, in leaf order. */
export function formatLogEntries(entries: readonly LogEntry[]): string {
  return entries
    .map((e) => `${JSON.stringify({ deviceId: e.deviceId, seq: e.seq, hash: e.hash })}\n`)
    .join('');
}

export function parseLogEntries(text: string): LogEntry[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line, i) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new LogFormatError(`entry ${i} is not JSON`);
    }
    const { deviceId, seq, hash } = (value ?? {}) as Record<string, unknown>;
    if (typeof deviceId !== 'string' || typeof seq !== 'string' || !/^[1-9][0-9]*$/.test(seq)) {
      throw new LogFormatError(`entry ${i} is not a seal link`);
    }
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
      throw new LogFormatError(`entry ${i} has no hash`);
    return { deviceId, seq, hash };
  });
}

/** The evidence log in memory: its entries, their leaf hashes, and proofs between any two of its sizes. */
export class EvidenceLog {
  private readonly list: LogEntry[] = [];
  private readonly leaves: Hash[] = [];
  private readonly index = new Map<string, number>();
  private readonly heads = new Map<string, bigint>();

  constructor(entries: readonly LogEntry[] = []) {
    this.append(entries);
  }

  get size(): number {
    return this.list.length;
  }

  get entries(): readonly LogEntry[] {
    return this.list;
  }

  /** Appends in the order given (the caller sorts); a link already in the log is a LogFormatError. */
  append(entries: readonly LogEntry[]): void {
    for (const e of entries) {
      const key = `${e.deviceId}\u0000${e.seq}`;
      if (this.index.has(key))
        throw new LogFormatError(`seal ${e.deviceId} seq ${e.seq} is in the log twice`);
      this.index.set(key, this.list.length);
      this.list.push(e);
      this.leaves.push(logLeaf(e));
      const seq = BigInt(e.seq);
      if (seq > (this.heads.get(e.deviceId) ?? 0n)) this.heads.set(e.deviceId, seq);
    }
  }

  /** The last seal of each device the log holds: the next checkpoint appends only what comes after. */
  lastSeqOf(deviceId: string): bigint {
    return this.heads.get(deviceId) ?? 0n;
  }

  devices(): Map<string, bigint> {
    return new Map(this.heads);
  }

  indexOf(deviceId: string, seq: string): number | undefined {
    return this.index.get(`${deviceId}\u0000${seq}`);
  }

  root(size = this.size): Hash {
    return rootOf(this.leaves, 0, size);
  }

  inclusion(index: number, size = this.size): Hash[] {
    return inclusionProof(this.leaves, index, size);
  }

  consistency(from: number, to = this.size): Hash[] {
    return consistencyProof(this.leaves, from, to);
  }
}
