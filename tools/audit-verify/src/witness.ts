import { EvidenceLog, type LogEntry } from '@fleet/audit-export';
import {
  openNote,
  parseCheckpoint,
  signNote,
  verifyConsistency,
  type NoteSigner,
  type NoteVerifier,
} from '@fleet/transparency';

/** What a witness remembers of a log: the last checkpoint it cosigned. */
export interface WitnessState {
  origin: string;
  size: number;
  /** base64 */
  root: string;
}

export class WitnessRefusal extends Error {}

/**
 * C2SP tlog-witness, as a command: a checkpoint is cosigned only when it is signed by the log's key, its entries
 * hash to its root, and it extends the last checkpoint this witness cosigned (RFC 9162 consistency, the proof built
 * from the entries the log publishes and checked against the root the witness kept). A log that rewrote or forked
 * its history cannot show that, so the witness refuses it and its state stays where it was.
 */
export function witnessCheckpoint(input: {
  note: string;
  entries: readonly LogEntry[];
  logKey: NoteVerifier;
  witness: NoteSigner;
  state: WitnessState | null;
}): { cosigned: string; state: WitnessState } {
  const { note: opened } = openNote(input.note, [input.logKey]);
  const checkpoint = parseCheckpoint(opened.text);
  const { state } = input;
  if (state && state.origin !== checkpoint.origin) {
    throw new WitnessRefusal(
      `the checkpoint is of ${checkpoint.origin}, this witness follows ${state.origin}`,
    );
  }
  if (input.entries.length < checkpoint.size) {
    throw new WitnessRefusal(
      `the log shows ${input.entries.length} entries for a tree of ${checkpoint.size}`,
    );
  }
  const log = new EvidenceLog(input.entries.slice(0, checkpoint.size));
  if (!log.root().equals(checkpoint.root)) {
    throw new WitnessRefusal("the log's entries do not hash to the checkpoint's root");
  }
  if (state) {
    if (checkpoint.size < state.size) {
      throw new WitnessRefusal(`the tree shrank from ${state.size} to ${checkpoint.size}`);
    }
    const proof = log.consistency(state.size, checkpoint.size);
    if (
      !verifyConsistency(
        state.size,
        checkpoint.size,
        proof,
        Buffer.from(state.root, 'base64'),
        checkpoint.root,
      )
    ) {
      throw new WitnessRefusal(
        `the tree of ${checkpoint.size} does not extend the tree of ${state.size} this witness cosigned: the log forked`,
      );
    }
  }
  return {
    cosigned: signNote(opened.text, [input.witness], opened.signatures),
    state: { origin: checkpoint.origin, size: checkpoint.size, root: checkpoint.root.toString('base64') },
  };
}
