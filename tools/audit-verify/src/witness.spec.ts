import { generateKeyPairSync } from 'node:crypto';
import { checkpointNote, EvidenceLog, type LogEntry } from '@fleet/audit-export';
import { cosignatureSigner, ed25519Signer, openNote } from '@fleet/transparency';
import { witnessCheckpoint, WitnessRefusal, type WitnessState } from './witness';

const origin = 'voice-fleet.test/evidence';
const log = ed25519Signer(origin, generateKeyPairSync('ed25519').privateKey);
const witness = cosignatureSigner('witness.example/w1', generateKeyPairSync('ed25519').privateKey);
const seal = (device: number, seq: number): LogEntry => ({
  deviceId: `a0:85:e3:00:00:${String(device).padStart(2, '0')}`,
  seq: String(seq),
  hash: `${device}${seq}`.padEnd(64, 'a'),
});

function published(entries: LogEntry[]) {
  return { note: checkpointNote(new EvidenceLog(entries), origin, log), entries };
}

describe('the witness', () => {
  const first = [seal(1, 6), seal(2, 6), seal(3, 6)];
  const grown = [...first, seal(1, 12), seal(2, 12)];

  it('cosigns a first checkpoint, then one that extends it; the cosigned note verifies under both keys', () => {
    const one = witnessCheckpoint({ ...published(first), logKey: log.verifier, witness, state: null });
    expect(one.state).toMatchObject({ origin, size: 3 });
    const two = witnessCheckpoint({ ...published(grown), logKey: log.verifier, witness, state: one.state });
    expect(two.state.size).toBe(5);
    const opened = openNote(two.cosigned, [log.verifier, witness.verifier]);
    expect(opened.by.map((v) => v.name)).toEqual([origin, 'witness.example/w1']);
  });

  it("refuses a forked log: an early seal rewritten, a new checkpoint signed by the log's own key", () => {
    const { state } = witnessCheckpoint({ ...published(first), logKey: log.verifier, witness, state: null });
    const forked = [first[0]!, { ...first[1]!, hash: 'f'.repeat(64) }, first[2]!, seal(1, 12)];
    expect(() => witnessCheckpoint({ ...published(forked), logKey: log.verifier, witness, state })).toThrow(
      new WitnessRefusal('the tree of 4 does not extend the tree of 3 this witness cosigned: the log forked'),
    );
  });

  it("refuses a shrunk tree, entries that do not hash to the root, and a checkpoint not signed by the log's key", () => {
    const state: WitnessState = witnessCheckpoint({
      ...published(grown),
      logKey: log.verifier,
      witness,
      state: null,
    }).state;
    expect(() => witnessCheckpoint({ ...published(first), logKey: log.verifier, witness, state })).toThrow(
      'the tree shrank from 5 to 3',
    );
    const lying = { note: published(grown).note, entries: first.concat([seal(9, 1), seal(9, 2)]) };
    expect(() => witnessCheckpoint({ ...lying, logKey: log.verifier, witness, state: null })).toThrow(
      "the log's entries do not hash to the checkpoint's root",
    );
    const stranger = ed25519Signer(origin, generateKeyPairSync('ed25519').privateKey);
    const foreign = { note: checkpointNote(new EvidenceLog(grown), origin, stranger), entries: grown };
    expect(() => witnessCheckpoint({ ...foreign, logKey: log.verifier, witness, state: null })).toThrow(
      'no signature of a known key',
    );
  });
});
