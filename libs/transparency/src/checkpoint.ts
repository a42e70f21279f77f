// C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the body of a log's signed note, one value a line: the
// log's origin, the tree size in decimal, the root hash in base64, then optional extension lines.

export class CheckpointError extends Error {}

export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
  extensions: string[];
}

export function formatCheckpoint(c: Checkpoint): string {
  if (!c.origin || /[\n]/.test(c.origin)) throw new CheckpointError('an origin is one non-empty line');
  if (!Number.isSafeInteger(c.size) || c.size < 0) throw new CheckpointError('a tree size is a whole number');
  if (c.root.length !== 32) throw new CheckpointError('a root hash is 32 bytes');
  return [c.origin, String(c.size), c.root.toString('base64'), ...c.extensions].map((l) => `${l}\n`).join('');
}

export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new CheckpointError('a checkpoint ends in a newline');
  const [origin, size, root, ...extensions] = text.slice(0, -1).split('\n');
  if (!origin) throw new CheckpointError('a checkpoint starts with its origin');
  if (size === undefined || !/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) {
    throw new CheckpointError('its second line is the tree size in decimal');
  }
  const hash = Buffer.from(root ?? '', 'base64');
  if (hash.length !== 32 || hash.toString('base64') !== root) {
    throw new CheckpointError('its third line is the root hash in base64');
  }
  if (extensions.some((l) => l === '')) throw new CheckpointError('an extension line is not empty');
  return { origin, size: Number(size), root: hash, extensions };
}
