import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

// RFC 8410: the fixed DER prefixes that wrap a raw Ed25519 key (32 bytes) as PKCS#8 and as SubjectPublicKeyInfo,
// so node:crypto signs with the raw keys the note formats carry.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new Error('an Ed25519 private key is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new Error('an Ed25519 public key is 32 bytes');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** The raw 32 bytes of an Ed25519 public key (from either half of the pair). */
export function rawPublicKey(key: KeyObject): Buffer {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  if (pub.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
  const der = pub.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32);
}

export function ed25519Sign(key: KeyObject, message: Uint8Array): Buffer {
  return sign(null, message, key);
}

export function ed25519Verify(key: KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
