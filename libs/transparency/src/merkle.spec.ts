import fc from 'fast-check';
import {
  consistencyProof,
  EMPTY_ROOT,
  inclusionProof,
  leafHash,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from './merkle';

// The RFC 6962 test tree: the leaves, roots and proofs of transparency-dev/merkle, proof/verify_test.go
// (the same vectors as certificate-transparency-go's merkletree tests).
const LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
];
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const INCLUSION: [leaf: number, size: number, proof: string[]][] = [
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [3, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    2,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];
const CONSISTENCY: [first: number, second: number, proof: string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [
    2,
    5,
    [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
  [
    6,
    7,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
];

const hex = (h: string) => Buffer.from(h, 'hex');
const leaves = LEAVES.map((l) => leafHash(hex(l)));
const hexes = (hs: Buffer[]) => hs.map((h) => h.toString('hex'));

describe('RFC 6962 Merkle tree', () => {
  it('hashes the empty tree as SHA-256 of nothing, and the test tree to its published roots at every size', () => {
    expect(EMPTY_ROOT.toString('hex')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    for (let size = 1; size <= 8; size++)
      expect(rootOf(leaves.slice(0, size)).toString('hex')).toBe(ROOTS[size - 1]);
  });

  it.each(INCLUSION)(
    'builds and verifies the published inclusion proof of leaf %i in a tree of %i',
    (leaf, size, proof) => {
      expect(hexes(inclusionProof(leaves, leaf - 1, size))).toEqual(proof);
      const root = hex(ROOTS[size - 1]!);
      expect(verifyInclusion(leaf - 1, size, leaves[leaf - 1]!, proof.map(hex), root)).toBe(true);
      expect(verifyInclusion(leaf, size, leaves[leaf - 1]!, proof.map(hex), root)).toBe(false);
      expect(verifyInclusion(leaf - 1, size * 2, leaves[leaf - 1]!, proof.map(hex), root)).toBe(false);
    },
  );

  it.each(CONSISTENCY)(
    'builds and verifies the published consistency proof from %i to %i',
    (first, second, proof) => {
      expect(hexes(consistencyProof(leaves, first, second))).toEqual(proof);
      const [r1, r2] = [hex(ROOTS[first - 1]!), hex(ROOTS[second - 1]!)];
      expect(verifyConsistency(first, second, proof.map(hex), r1, r2)).toBe(true);
      if (proof.length > 0) {
        expect(verifyConsistency(first, second, proof.map(hex), r2, r1)).toBe(false);
        expect(verifyConsistency(first, second, proof.slice(0, -1).map(hex), r1, r2)).toBe(false);
        expect(verifyConsistency(first, second, [...proof.map(hex), r1], r1, r2)).toBe(false);
      }
    },
  );

  it('refuses a proof of the future shrinking into the past, and proofs of nothing that claim something', () => {
    const r = hex(ROOTS[0]!);
    expect(verifyConsistency(2, 1, [], r, r)).toBe(false);
    expect(verifyConsistency(1, 1, [EMPTY_ROOT], r, r)).toBe(false);
    expect(verifyConsistency(0, 1, [], EMPTY_ROOT, r)).toBe(true);
    expect(verifyInclusion(0, 0, leaves[0]!, [], EMPTY_ROOT)).toBe(false);
  });

  const trees = fc
    .array(fc.uint8Array({ maxLength: 8 }), { minLength: 1, maxLength: 70 })
    .map((data) => data.map((d) => leafHash(d)));

  it('verifies every inclusion proof of every tree, and fails it for a changed leaf', () => {
    fc.assert(
      fc.property(trees, fc.nat(), fc.nat(), (tree, i, j) => {
        const size = 1 + (j % tree.length);
        const index = i % size;
        const root = rootOf(tree, 0, size);
        const proof = inclusionProof(tree, index, size);
        expect(verifyInclusion(index, size, tree[index]!, proof, root)).toBe(true);
        const changed = leafHash(Buffer.concat([Buffer.from('x'), tree[index]!]));
        expect(verifyInclusion(index, size, changed, proof, root)).toBe(false);
      }),
    );
  });

  it('verifies every consistency proof between two sizes, and fails it once an early leaf changes', () => {
    fc.assert(
      fc.property(trees, fc.nat(), fc.nat(), fc.nat(), (tree, a, b, c) => {
        const second = 1 + (b % tree.length);
        const first = 1 + (a % second);
        const proof = consistencyProof(tree, first, second);
        const r1 = rootOf(tree, 0, first);
        expect(verifyConsistency(first, second, proof, r1, rootOf(tree, 0, second))).toBe(true);
        // A fork: one leaf of the first tree rewritten, the second tree built on the rewrite.
        const forked = [...tree];
        const at = c % first;
        forked[at] = leafHash(Buffer.concat([Buffer.from('fork'), tree[at]!]));
        const forkProof = consistencyProof(forked, first, second);
        expect(verifyConsistency(first, second, forkProof, r1, rootOf(forked, 0, second))).toBe(false);
      }),
    );
  });
});
