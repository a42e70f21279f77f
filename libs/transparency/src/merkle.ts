import { createHash } from 'node:crypto';

// RFC 6962 §2.1 (RFC 9162 §2.1): the Merkle Tree Hash of a log. Leaves and interior nodes hash under different
// prefixes (0x00, 0x01), so a leaf can never pass for a node. Hashes are raw 32-byte SHA-256 values.

export type Hash = Buffer;

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

export function leafHash(data: Uint8Array): Hash {
  return createHash('sha256').update(LEAF_PREFIX).update(data).digest();
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Hash {
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
}

/** MTH({}): the hash of the empty string. */
export const EMPTY_ROOT: Hash = createHash('sha256').digest();

/** The largest power of two smaller than n (n > 1): where MTH splits a tree. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]) over leaf hashes already computed, from `from` (inclusive) to `to` (exclusive). */
export function rootOf(leaves: readonly Hash[], from = 0, to = leaves.length): Hash {
  const n = to - from;
  if (n === 0) return EMPTY_ROOT;
  if (n === 1) return leaves[from]!;
  const k = splitPoint(n);
  return nodeHash(rootOf(leaves, from, from + k), rootOf(leaves, from + k, to));
}

/** RFC 9162 §2.1.3.1 PATH(m, D[n]): the audit path of leaf `index` in the tree of the first `size` leaves. */
export function inclusionProof(leaves: readonly Hash[], index: number, size = leaves.length): Hash[] {
  if (!(index >= 0 && index < size && size <= leaves.length)) {
    throw new RangeError(`no leaf ${index} in a tree of ${size}`);
  }
  const path = (m: number, from: number, to: number): Hash[] => {
    const n = to - from;
    if (n === 1) return [];
    const k = splitPoint(n);
    return m < k
      ? [...path(m, from, from + k), rootOf(leaves, from + k, to)]
      : [...path(m - k, from + k, to), rootOf(leaves, from, from + k)];
  };
  return path(index, 0, size);
}

/** RFC 9162 §2.1.4.1 PROOF(m, D[n]): that the tree of `second` leaves extends the tree of the first `first`. */
export function consistencyProof(leaves: readonly Hash[], first: number, second = leaves.length): Hash[] {
  if (!(first >= 0 && first <= second && second <= leaves.length)) {
    throw new RangeError(`no consistency proof from ${first} to ${second}`);
  }
  if (first === 0 || first === second) return [];
  const subproof = (m: number, from: number, to: number, whole: boolean): Hash[] => {
    const n = to - from;
    if (m === n) return whole ? [] : [rootOf(leaves, from, to)];
    const k = splitPoint(n);
    return m <= k
      ? [...subproof(m, from, from + k, whole), rootOf(leaves, from + k, to)]
      : [...subproof(m - k, from + k, to, false), rootOf(leaves, from, from + k)];
  };
  return subproof(first, 0, second, true);
}

const odd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

/** RFC 9162 §2.1.3.2: the root an inclusion proof leads to, or undefined when the proof cannot be one. */
export function rootFromInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
): Hash | undefined {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 && index < size))
    return undefined;
  if (leaf.length !== 32 || proof.some((p) => p.length !== 32)) return undefined;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leaf);
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn)) {
        do {
          fn = half(fn);
          sn = half(sn);
        } while (!odd(fn) && fn !== 0);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : undefined;
}

export function verifyInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  const computed = rootFromInclusion(index, size, leaf, proof);
  return computed !== undefined && computed.equals(root);
}

/** RFC 9162 §2.1.4.2: that the tree of `second` leaves with `secondRoot` extends the one of `first` with `firstRoot`. */
export function verifyConsistency(
  first: number,
  second: number,
  proof: readonly Uint8Array[],
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
): boolean {
  if (!(Number.isSafeInteger(first) && Number.isSafeInteger(second) && first >= 0 && first <= second))
    return false;
  if (proof.some((p) => p.length !== 32)) return false;
  if (first === second) return proof.length === 0 && Buffer.from(firstRoot).equals(secondRoot);
  // Every tree extends the empty one, and there is nothing to prove.
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr: Buffer = Buffer.from(path[0]!);
  let sr: Buffer = Buffer.from(path[0]!);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn)) {
        do {
          fn = half(fn);
          sn = half(sn);
        } while (!odd(fn) && fn !== 0);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}

function isPowerOfTwo(n: number): boolean {
  // Arithmetic rather than bitwise: tree sizes may pass 2^31.
  let m = n;
  while (m > 1 && m % 2 === 0) m /= 2;
  return m === 1;
}
