import { createHash, type KeyObject } from 'node:crypto';
import { ed25519Sign, ed25519Verify, publicKeyFromRaw, rawPublicKey } from './ed25519';

// C2SP signed-note (https://c2sp.org/signed-note): a UTF-8 text ending in a newline, a blank line, then one line
// per signature, `— <key name> <base64(key id || signature)>`. A key is named, and its 4-byte id is the start of
// SHA-256(name || 0x0A || type || public key): type 0x01 for Ed25519 over the text itself, 0x04 for the timestamped
// cosignature of c2sp.org/tlog-cosignature (cosignature.ts).

export const ED25519_TYPE = 0x01;
export const COSIGNATURE_TYPE = 0x04;

export class NoteError extends Error {}

/** A key as a verifier knows it: its name, id and raw public key, and the algorithm its signatures use. */
export interface NoteVerifier {
  name: string;
  /** 4 bytes, as 8 lowercase hex digits. */
  keyId: string;
  type: number;
  publicKey: KeyObject;
  /** `name+hash+base64(type || key)`, the form C2SP names a verifier key by. */
  text: string;
  verify(message: Uint8Array, signature: Uint8Array): boolean;
}

/** A key that signs notes under a name. */
export interface NoteSigner {
  name: string;
  keyId: string;
  sign(message: Uint8Array): Buffer;
  verifier: NoteVerifier;
}

/** C2SP signed-note: a key name is non-empty and holds no Unicode space and no plus sign. */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

export function keyId(name: string, type: number, rawKey: Uint8Array): string {
  return createHash('sha256')
    .update(name, 'utf8')
    .update(Buffer.from([0x0a, type]))
    .update(rawKey)
    .digest()
    .subarray(0, 4)
    .toString('hex');
}

/** A verifier for Ed25519 note signatures (type 0x01) from a name and a raw or KeyObject public key. */
export function ed25519Verifier(name: string, key: KeyObject): NoteVerifier {
  if (!isValidKeyName(name)) throw new NoteError(`not a key name: ${JSON.stringify(name)}`);
  const raw = rawPublicKey(key);
  const id = keyId(name, ED25519_TYPE, raw);
  const publicKey = key.type === 'private' ? publicKeyFromRaw(raw) : key;
  return {
    name,
    keyId: id,
    type: ED25519_TYPE,
    publicKey,
    text: `${name}+${id}+${Buffer.concat([Buffer.from([ED25519_TYPE]), raw]).toString('base64')}`,
    verify: (message, signature) => ed25519Verify(publicKey, message, signature),
  };
}

export function ed25519Signer(name: string, privateKey: KeyObject): NoteSigner {
  const verifier = ed25519Verifier(name, privateKey);
  return {
    name,
    keyId: verifier.keyId,
    sign: (message) => ed25519Sign(privateKey, message),
    verifier,
  };
}

/** The parts of a verifier key string `name+hash+base64(type || key)`, checked against each other. */
export function parseVerifierKey(text: string): { name: string; keyId: string; type: number; key: Buffer } {
  const trimmed = text.trim();
  const [name, id, material, ...rest] = trimmed.split('+');
  // The base64 may hold '+' itself: put it back together.
  const base64 = [material, ...rest].join('+');
  if (!name || !isValidKeyName(name)) throw new NoteError('a verifier key reads name+hash+base64');
  if (!id || !/^[0-9a-f]{8}$/.test(id)) throw new NoteError('a verifier key names its hash as 8 hex digits');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length < 2 || bytes.toString('base64') !== base64) throw new NoteError('its key is not base64');
  const type = bytes[0]!;
  const key = bytes.subarray(1);
  if (key.length !== 32) throw new NoteError('an Ed25519 key is 32 bytes');
  if (keyId(name, type, key) !== id) throw new NoteError('its hash is not that of its name and key');
  return { name, keyId: id, type, key };
}

/** A verifier from its key string (Ed25519 type 0x01). */
export function verifierFromKey(text: string): NoteVerifier {
  const parsed = parseVerifierKey(text);
  if (parsed.type !== ED25519_TYPE) throw new NoteError(`key type ${parsed.type} is not Ed25519 (0x01)`);
  return ed25519Verifier(parsed.name, publicKeyFromRaw(parsed.key));
}

export interface NoteSignature {
  name: string;
  keyId: string;
  /** What follows the key id: the signature itself (with a cosignature's timestamp before it). */
  signature: Buffer;
  /** The line's base64, as written. */
  base64: string;
}

export interface Note {
  text: string;
  signatures: NoteSignature[];
}

const SIGNATURE_LINE = /^\u2014 (\S+) (\S+)$/u;

/** Splits a signed note into its text and signature lines (checking nothing but the form). */
export function parseNote(note: string): Note {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n'))
    throw new NoteError('a signed note is a text, a blank line and signatures');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  const signatures = lines.map((line) => {
    const match = SIGNATURE_LINE.exec(line);
    if (!match) throw new NoteError(`not a signature line: ${JSON.stringify(line)}`);
    const [, name, base64] = match as unknown as [string, string, string];
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length < 5 || bytes.toString('base64') !== base64)
      throw new NoteError('a signature is not base64');
    return { name, keyId: bytes.subarray(0, 4).toString('hex'), signature: bytes.subarray(4), base64 };
  });
  if (signatures.length === 0) throw new NoteError('a signed note has at least one signature');
  return { text, signatures };
}

/** The note signed by each signer in turn, after the signatures it already had. */
export function signNote(
  text: string,
  signers: readonly NoteSigner[],
  existing: NoteSignature[] = [],
): string {
  if (!text.endsWith('\n') || text.includes('\n\n')) {
    throw new NoteError('a note text ends in a newline and holds no blank line');
  }
  const message = Buffer.from(text, 'utf8');
  const lines = existing.map((s) => `\u2014 ${s.name} ${s.base64}`);
  for (const signer of signers) {
    const blob = Buffer.concat([Buffer.from(signer.keyId, 'hex'), signer.sign(message)]);
    lines.push(`\u2014 ${signer.name} ${blob.toString('base64')}`);
  }
  return `${text}\n${lines.join('\n')}\n`;
}

/**
 * The signatures of a note that verify under the given keys (matched by name and key id). A signature by a known
 * key that does not verify makes the note false, not merely unsigned by that key.
 */
export function verifiedSignatures(note: Note, verifiers: readonly NoteVerifier[]): NoteVerifier[] {
  const message = Buffer.from(note.text, 'utf8');
  const verified: NoteVerifier[] = [];
  for (const s of note.signatures) {
    const verifier = verifiers.find((v) => v.name === s.name && v.keyId === s.keyId);
    if (!verifier) continue;
    if (!verifier.verify(message, s.signature)) {
      throw new NoteError(`the signature of ${s.name} (${s.keyId}) does not hold`);
    }
    verified.push(verifier);
  }
  return verified;
}

/** The note's text when at least one of the keys signed it; a NoteError otherwise. */
export function openNote(
  note: string,
  verifiers: readonly NoteVerifier[],
): { note: Note; by: NoteVerifier[] } {
  const parsed = parseNote(note);
  const by = verifiedSignatures(parsed, verifiers);
  if (by.length === 0) throw new NoteError('no signature of a known key');
  return { note: parsed, by };
}
