import type { KeyObject } from 'node:crypto';
import { publicKeyFromText, publicKeyInfo, SigningKeyError } from './audit-signing-key';

/**
 * What an auditor trusts, got out of band: the platform's public key itself, or only its fingerprint (read out
 * over the phone), which then vouches for the key the file carries. Nothing else makes an export verified: the key
 * inside a file is the forger's as easily as the platform's.
 */
export type TrustAnchor = { kind: 'key'; key: KeyObject } | { kind: 'fingerprint'; fingerprint: string };

const FINGERPRINT = /^sha256:[0-9a-f]{64}$/;
const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/;
const FINGERPRINT_LINE = /^fingerprint:\s*(\S+)\s*$/m;

export function fingerprintAnchor(text: string): TrustAnchor {
  const fingerprint = text.trim().toLowerCase();
  if (!FINGERPRINT.test(fingerprint)) {
    throw new SigningKeyError('a fingerprint reads sha256:<64 hex digits>, as audit:public-key prints it');
  }
  return { kind: 'fingerprint', fingerprint };
}

/**
 * The platform's public key as it publishes it: the JSON of GET /reports/audit/signing-key, what
 * `npm run audit:public-key` prints, a PEM, or the base64 of the raw 32 bytes. Where the text also states a
 * fingerprint or a second form of the key, they must agree with each other.
 */
export function keyAnchor(text: string): TrustAnchor {
  const trimmed = text.trim();
  const forms = trimmed.startsWith('{') ? publishedJson(trimmed) : printedText(trimmed);
  const keys = forms.keys.map(publicKeyFromText);
  const fingerprints = new Set(keys.map((k) => publicKeyInfo(k).fingerprint));
  if (keys.length === 0) throw new SigningKeyError('no public key in it');
  if (fingerprints.size > 1) throw new SigningKeyError('it holds two different keys');
  const [fingerprint] = fingerprints;
  if (forms.fingerprint !== undefined && forms.fingerprint.toLowerCase() !== fingerprint) {
    throw new SigningKeyError(
      `its fingerprint (${forms.fingerprint}) is not that of its key (${fingerprint})`,
    );
  }
  return { kind: 'key', key: keys[0]! };
}

function publishedJson(text: string): { keys: string[]; fingerprint?: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new SigningKeyError('not JSON');
  }
  const { publicKey, publicKeyPem, fingerprint } = (doc ?? {}) as Record<string, unknown>;
  const keys = [publicKey, publicKeyPem].filter((k): k is string => typeof k === 'string');
  return { keys, ...(typeof fingerprint === 'string' ? { fingerprint } : {}) };
}

function printedText(text: string): { keys: string[]; fingerprint?: string } {
  const pem = PEM_BLOCK.exec(text)?.[0];
  const fingerprint = FINGERPRINT_LINE.exec(text)?.[1];
  return { keys: [pem ?? text], ...(fingerprint ? { fingerprint } : {}) };
}
