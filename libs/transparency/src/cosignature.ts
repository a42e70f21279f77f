import type { KeyObject } from 'node:crypto';
import { ed25519Sign, ed25519Verify, publicKeyFromRaw, rawPublicKey } from './ed25519';
import {
  COSIGNATURE_TYPE,
  isValidKeyName,
  keyId,
  NoteError,
  parseVerifierKey,
  type NoteSignature,
  type NoteSigner,
  type NoteVerifier,
} from './signed-note';

// C2SP tlog-cosignature (https://c2sp.org/tlog-cosignature), cosignature/v1: a witness signs
// "cosignature/v1\ntime <unix seconds>\n" followed by the checkpoint text, and its signature line carries the key
// id (key type 0x04), the time as 8 big-endian bytes, then the Ed25519 signature. The witness states that it saw
// this checkpoint extend every one it cosigned before for the same log.

function cosignedMessage(time: bigint, text: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`cosignature/v1\ntime ${time}\n`, 'utf8'), text]);
}

export function cosignatureVerifier(name: string, key: KeyObject): NoteVerifier {
  if (!isValidKeyName(name)) throw new NoteError(`not a key name: ${JSON.stringify(name)}`);
  const raw = rawPublicKey(key);
  const id = keyId(name, COSIGNATURE_TYPE, raw);
  const publicKey = key.type === 'private' ? publicKeyFromRaw(raw) : key;
  return {
    name,
    keyId: id,
    type: COSIGNATURE_TYPE,
    publicKey,
    text: `${name}+${id}+${Buffer.concat([Buffer.from([COSIGNATURE_TYPE]), raw]).toString('base64')}`,
    verify: (message, signature) => {
      if (signature.length !== 8 + 64) return false;
      const time = Buffer.from(signature).readBigUInt64BE(0);
      return ed25519Verify(publicKey, cosignedMessage(time, message), signature.subarray(8));
    },
  };
}

/** A witness's signer; `now` gives the time it states (Unix seconds). */
export function cosignatureSigner(
  name: string,
  privateKey: KeyObject,
  now: () => number = () => Math.floor(Date.now() / 1000),
): NoteSigner {
  const verifier = cosignatureVerifier(name, privateKey);
  return {
    name,
    keyId: verifier.keyId,
    sign: (message) => {
      const time = BigInt(now());
      const stamp = Buffer.alloc(8);
      stamp.writeBigUInt64BE(time);
      return Buffer.concat([stamp, ed25519Sign(privateKey, cosignedMessage(time, message))]);
    },
    verifier,
  };
}

/** A cosigner's verifier from its key string (type 0x04). */
export function cosignatureVerifierFromKey(text: string): NoteVerifier {
  const parsed = parseVerifierKey(text);
  if (parsed.type !== COSIGNATURE_TYPE) {
    throw new NoteError(`key type ${parsed.type} is not a cosignature/v1 key (0x04)`);
  }
  return cosignatureVerifier(parsed.name, publicKeyFromRaw(parsed.key));
}

/** When a cosignature says it was made (Unix seconds). */
export function cosignatureTime(signature: NoteSignature): number {
  if (signature.signature.length !== 8 + 64) throw new NoteError('not a cosignature/v1 signature');
  return Number(signature.signature.readBigUInt64BE(0));
}
