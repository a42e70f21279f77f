import { readFileSync } from 'node:fs';

/** A V8 heap snapshot (`.heapsnapshot`), the parts read here. */
interface RawSnapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapGroup {
  /** `object:Map`, `closure:onMessage`, `(string)`… */
  key: string;
  count: number;
  selfBytes: number;
}

export interface ParsedSnapshot {
  groups: Map<string, HeapGroup>;
  /** Who holds a node of a group: `holder.edge` chains towards the roots, for the first nodes of that group. */
  retainerPaths(key: string, samples?: number, depth?: number): string[];
}

const FLAT = new Set([
  'string',
  'concatenated string',
  'sliced string',
  'number',
  'code',
  'hidden',
  'symbol',
]);

/** The group a node belongs to: objects and closures by their constructor or function name, the rest by type. */
export function groupKey(type: string, name: string): string {
  if (FLAT.has(type)) return `(${type})`;
  return `${type}:${name.length > 60 ? `${name.slice(0, 57)}...` : name}`;
}

/** Reads a snapshot, groups every node and keeps the edges to walk retainers back from a group's nodes. */
export function parseHeapSnapshot(path: string): ParsedSnapshot {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as RawSnapshot;
  const { meta } = raw.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [typeF, nameF, sizeF, edgesF] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
    meta.node_fields.indexOf(f),
  ) as [number, number, number, number];
  const [eTypeF, eNameF, eToF] = ['type', 'name_or_index', 'to_node'].map((f) =>
    meta.edge_fields.indexOf(f),
  ) as [number, number, number];
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const nodeCount = raw.nodes.length / nf;
  const groups = new Map<string, HeapGroup>();
  const keys: string[] = new Array<string>(nodeCount);
  // Retainers: for each node, the first strong edge pointing at it (enough to follow a chain to a root).
  const retainer = new Int32Array(nodeCount).fill(-1);
  const retainerEdge = new Int32Array(nodeCount).fill(-1);
  let edge = 0;
  for (let n = 0; n < nodeCount; n++) {
    const base = n * nf;
    const key = groupKey(nodeTypes[raw.nodes[base + typeF]!]!, raw.strings[raw.nodes[base + nameF]!] ?? '');
    keys[n] = key;
    const group = groups.get(key) ?? { key, count: 0, selfBytes: 0 };
    group.count++;
    group.selfBytes += raw.nodes[base + sizeF]!;
    groups.set(key, group);
    const edges = raw.nodes[base + edgesF]!;
    for (let e = 0; e < edges; e++, edge += ef) {
      const eType = edgeTypes[raw.edges[edge + eTypeF]!];
      if (eType === 'weak' || eType === 'shortcut') continue;
      const to = raw.edges[edge + eToF]! / nf;
      if (retainer[to] === -1) {
        retainer[to] = n;
        retainerEdge[to] = edge;
      }
    }
  }
  const edgeName = (e: number) => {
    const type = edgeTypes[raw.edges[e + eTypeF]!];
    const nameOrIndex = raw.edges[e + eNameF]!;
    return type === 'element' || type === 'hidden' ? `[${nameOrIndex}]` : (raw.strings[nameOrIndex] ?? '?');
  };
  return {
    groups,
    retainerPaths(key, samples = 2, depth = 8) {
      const paths: string[] = [];
      for (let n = nodeCount - 1; n >= 0 && paths.length < samples; n--) {
        if (keys[n] !== key) continue;
        const steps: string[] = [];
        for (let at = n, d = 0; d < depth && retainer[at] !== -1; d++) {
          steps.push(`${keys[retainer[at]!]}.${edgeName(retainerEdge[at]!)}`);
          at = retainer[at]!;
        }
        paths.push(steps.join(' <- '));
      }
      return paths;
    },
  };
}

/** Pure: groups that grew from `before` to `after`, largest growth in self size first, per `units` (devices). */
export function growth(
  before: Map<string, HeapGroup>,
  after: Map<string, HeapGroup>,
  units: number,
): { key: string; countPerUnit: number; bytesPerUnit: number }[] {
  return [...after.values()]
    .map((g) => ({
      key: g.key,
      countPerUnit: (g.count - (before.get(g.key)?.count ?? 0)) / units,
      bytesPerUnit: (g.selfBytes - (before.get(g.key)?.selfBytes ?? 0)) / units,
    }))
    .sort((a, b) => b.bytesPerUnit - a.bytesPerUnit);
}
