import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

// RFC 8410: the fixed DER prefixes that wrap a raw Ed25519 key (32 bytes) as PKCS#8 and as SubjectPublicKeyInfo.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export class SigningKeyError extends Error {}

/**
 * The platform's audit signing key from its configured text: PEM (PKCS#8, what `openssl genpkey -algorithm
 * ed25519` writes) or the base64 of the 32-byte private key.
 */
export function privateKeyFromText(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? tryKey(() => createPrivateKey(trimmed))
    : tryKey(() => {
        const raw = Buffer.from(trimmed, 'base64');
        if (raw.length !== 32) throw new SigningKeyError('expected 32 bytes of base64');
        return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });
      });
  return ed25519(key);
}

/** A public key as an auditor has it: PEM (SPKI), or the base64 of the raw 32 bytes the API publishes. */
export function publicKeyFromText(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? tryKey(() => createPublicKey(trimmed))
    : tryKey(() => {
        const raw = Buffer.from(trimmed, 'base64');
        if (raw.length !== 32) throw new SigningKeyError('expected 32 bytes of base64');
        return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
      });
  return ed25519(key);
}

export interface PublicKeyInfo {
  algorithm: 'Ed25519';
  /** The raw 32-byte public key, base64. */
  publicKey: string;
  publicKeyPem: string;
  /** `sha256:<hex>` of the raw public key: short enough to read out over the phone. */
  fingerprint: string;
}

/** What the platform publishes about its key (from either half of the pair). */
export function publicKeyInfo(key: KeyObject): PublicKeyInfo {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const raw = rawPublicKey(pub);
  return {
    algorithm: 'Ed25519',
    publicKey: raw.toString('base64'),
    publicKeyPem: pub.export({ format: 'pem', type: 'spki' }).toString(),
    fingerprint: `sha256:${createHash('sha256').update(raw).digest('hex')}`,
  };
}

function rawPublicKey(pub: KeyObject): Buffer {
  const der = pub.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32);
}

function tryKey(make: () => KeyObject): KeyObject {
  try {
    return make();
  } catch (err) {
    throw err instanceof SigningKeyError ? err : new SigningKeyError((err as Error).message);
  }
}

function ed25519(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new SigningKeyError(`expected an Ed25519 key, got ${key.asymmetricKeyType ?? 'another kind'}`);
  }
  return key;
}
