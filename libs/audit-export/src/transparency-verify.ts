import type { KeyObject } from 'node:crypto';
import { SEAL_LINK } from '@fleet/domain';
import {
  ed25519Verifier,
  openNote,
  parseCheckpoint,
  parseNote,
  verifyConsistency,
  verifyInclusion,
  type Checkpoint,
} from '@fleet/transparency';
import type { AuditExport } from './audit-export';
import type { ExportProblem } from './audit-export-verify';
import { logLeaf } from './evidence-log';
import { SealKeyring } from './seal-signature';

export interface CheckpointChecked {
  origin: string;
  size: number;
  previousSize: number | null;
  /** Seal links shown to be leaves of the checkpointed tree. */
  included: number;
  /** Seal links whose signature holds under a key the export lists. */
  signedSeals: number;
}

const b64 = (s: string) => Buffer.from(s, 'base64');

/**
 * DESIGN §6, offline: the export's checkpoint holds under the platform's key (the one that checked the export),
 * the checkpoint before it is extended by it (RFC 9162 consistency), and every seal link is signed by a listed
 * orchestrator key and is a leaf of the checkpointed tree (RFC 9162 inclusion). Problems are added in document
 * order; answers what was checked, or null when there is no checkpoint that holds.
 */
export function checkTransparency(
  doc: AuditExport,
  platformKey: KeyObject,
  problems: ExportProblem[],
): CheckpointChecked | null {
  const t = doc.transparency;
  const whole = (problem: string, detail: string) => problems.push({ deviceId: '', problem, detail });
  if (!t) {
    whole(
      'no_checkpoint',
      'the export carries no checkpoint: its seals are not shown to be in the evidence log',
    );
    return null;
  }
  let checkpoint: Checkpoint;
  try {
    checkpoint = openCheckpoint(t.checkpoint, platformKey);
  } catch (err) {
    whole('checkpoint_invalid', `its checkpoint does not hold: ${(err as Error).message}`);
    return null;
  }
  let previousSize: number | null = null;
  if (t.previous !== null) {
    try {
      const previous = openCheckpoint(t.previous, platformKey);
      previousSize = previous.size;
      if (previous.origin !== checkpoint.origin) throw new Error('it is of another log');
      if (
        !verifyConsistency(
          previous.size,
          checkpoint.size,
          t.consistency.map(b64),
          previous.root,
          checkpoint.root,
        )
      ) {
        throw new Error(`the tree of ${checkpoint.size} does not extend the tree of ${previous.size}`);
      }
    } catch (err) {
      whole(
        'consistency_invalid',
        `the previous checkpoint is not extended by this one: ${(err as Error).message}`,
      );
    }
  }
  let ring: SealKeyring;
  try {
    ring = new SealKeyring(t.sealKeys);
  } catch (err) {
    whole('seal_keys_unreadable', `its seal keys cannot be read: ${(err as Error).message}`);
    return null;
  }
  const proofs = new Map(t.inclusions.map((i) => [`${i.deviceId}\u0000${i.seq}`, i]));
  let included = 0;
  let signedSeals = 0;
  for (const chain of doc.evidence.chains) {
    for (const link of chain.links ?? []) {
      if (link.stage !== SEAL_LINK) continue;
      const at = { deviceId: chain.deviceId, seq: link.seq, callId: link.callId, stage: SEAL_LINK } as const;
      const signature = ring.check(link.hash, link.sealKeyId, link.sealSignature);
      if (signature.ok) signedSeals++;
      else problems.push({ ...at, problem: signature.problem, detail: signature.detail });
      const inclusion = proofs.get(`${chain.deviceId}\u0000${link.seq}`);
      if (!inclusion) {
        problems.push({
          ...at,
          problem: 'seal_not_in_checkpoint',
          detail: 'the export shows no proof it is in the log',
        });
        continue;
      }
      const leaf = logLeaf({ deviceId: chain.deviceId, seq: link.seq, hash: link.hash });
      if (
        !verifyInclusion(
          inclusion.leafIndex,
          checkpoint.size,
          leaf,
          inclusion.proof.map(b64),
          checkpoint.root,
        )
      ) {
        problems.push({
          ...at,
          problem: 'inclusion_invalid',
          detail: `its inclusion proof does not lead to the checkpoint's root (tree of ${checkpoint.size})`,
        });
        continue;
      }
      included++;
    }
  }
  return { origin: checkpoint.origin, size: checkpoint.size, previousSize, included, signedSeals };
}

/** A checkpoint note signed by the platform's key under its own origin as the key name. */
function openCheckpoint(note: string, platformKey: KeyObject): Checkpoint {
  const origin = parseCheckpoint(parseNote(note).text).origin;
  return parseCheckpoint(openNote(note, [ed25519Verifier(origin, platformKey)]).note.text);
}
