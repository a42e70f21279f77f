import { generateKeyPairSync } from 'node:crypto';
import { formatCheckpoint, parseCheckpoint } from './checkpoint';
import {
  cosignatureSigner,
  cosignatureTime,
  cosignatureVerifier,
  cosignatureVerifierFromKey,
} from './cosignature';
import { privateKeyFromSeed } from './ed25519';
import { rootOf, leafHash } from './merkle';
import {
  ed25519Signer,
  NoteError,
  openNote,
  parseNote,
  parseVerifierKey,
  signNote,
  verifierFromKey,
} from './signed-note';

// golang.org/x/mod/sumdb/note, note_test.go and its package example: PeterNeumann's key pair and signed note.
// Ed25519 is deterministic (RFC 8032), so signing the text with the key must give the published note byte for byte.
const PETER_SKEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const PETER_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const PETER_TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_NOTE = `${PETER_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;
// transparency-dev/formats, note/note_cosigv1_test.go: a cosignature/v1 key (type 0x04), an Ed25519 key whose
// base64 holds a '+', and a cosignature made at Unix time 1727964367.
const REMORA_VKEY = 'remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2';
const PLUS_VKEY = 'TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6';
const TIMED_COSIGNATURE =
  'ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyocWODBt97w9uL+8qT7S5gxEHWWOworDcFiEBYJXORmnFBOBA==';

function peterSigner() {
  const seed = Buffer.from(PETER_SKEY.split('+').slice(4).join('+'), 'base64').subarray(1);
  return ed25519Signer('PeterNeumann', privateKeyFromSeed(seed));
}

describe('C2SP signed-note', () => {
  it('signs the Go reference text into the published note, with the published verifier key', () => {
    const signer = peterSigner();
    expect(signer.verifier.text).toBe(PETER_VKEY);
    expect(signNote(PETER_TEXT, [signer])).toBe(PETER_NOTE);
  });

  it('opens the published note with the verifier key string, and refuses a changed text', () => {
    const verifier = verifierFromKey(PETER_VKEY);
    expect(openNote(PETER_NOTE, [verifier]).note.text).toBe(PETER_TEXT);
    expect(() => openNote(PETER_NOTE.replace('cryptography', 'cryptographY'), [verifier])).toThrow(
      'the signature of PeterNeumann (c74f20a3) does not hold',
    );
    const stranger = ed25519Signer('PeterNeumann', generateKeyPairSync('ed25519').privateKey).verifier;
    expect(() => openNote(PETER_NOTE, [stranger])).toThrow('no signature of a known key');
  });

  it("reads published verifier keys (a '+' inside the base64, a cosignature key) and refuses a wrong key hash", () => {
    expect(parseVerifierKey(PLUS_VKEY)).toMatchObject({ name: 'TEST', keyId: '7997405c', type: 1 });
    expect(cosignatureVerifierFromKey(REMORA_VKEY).keyId).toBe('da77ade7');
    expect(() => parseVerifierKey(PETER_VKEY.replace('c74f20a3', 'c74f20a4'))).toThrow(NoteError);
    expect(() => verifierFromKey(REMORA_VKEY)).toThrow('not Ed25519');
  });

  it('reads the timestamp of a published cosignature', () => {
    const [sig] = parseNote(`a\nb\nc\n\n\u2014 w ${TIMED_COSIGNATURE}\n`).signatures;
    expect(cosignatureTime(sig!)).toBe(1727964367);
  });
});

describe('checkpoints and cosignatures', () => {
  const log = ed25519Signer('fleet.example/evidence', generateKeyPairSync('ed25519').privateKey);
  const witnessKey = generateKeyPairSync('ed25519').privateKey;
  const witness = cosignatureSigner('witness.example/w1', witnessKey, () => 1_800_000_000);
  const root = rootOf([leafHash(Buffer.from('a')), leafHash(Buffer.from('b'))]);
  const body = formatCheckpoint({ origin: 'fleet.example/evidence', size: 2, root, extensions: [] });

  it('writes and reads back a checkpoint body: origin, size, base64 root', () => {
    expect(body).toBe(`fleet.example/evidence\n2\n${root.toString('base64')}\n`);
    expect(parseCheckpoint(body)).toEqual({
      origin: 'fleet.example/evidence',
      size: 2,
      root,
      extensions: [],
    });
    expect(() => parseCheckpoint('o\n02\nAAAA\n')).toThrow('tree size');
  });

  it("verifies a log's checkpoint cosigned by a witness, with the time the witness states", () => {
    const signed = signNote(body, [log]);
    const cosigned = signNote(body, [witness], parseNote(signed).signatures);
    const opened = openNote(cosigned, [log.verifier, cosignatureVerifier('witness.example/w1', witnessKey)]);
    expect(opened.by.map((v) => v.name)).toEqual(['fleet.example/evidence', 'witness.example/w1']);
    expect(cosignatureTime(opened.note.signatures[1]!)).toBe(1_800_000_000);
    // The witness's line under the log's key type (0x01) is another key id: it is not mistaken for a log signature.
    const asLogKey = ed25519Signer('witness.example/w1', witnessKey).verifier;
    expect(() => openNote(signNote(body, [witness]), [asLogKey])).toThrow('no signature of a known key');
  });
});
