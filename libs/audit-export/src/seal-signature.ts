import type { KeyObject } from 'node:crypto';
import { ed25519Signer, verifierFromKey, type NoteVerifier } from '@fleet/transparency';
import { privateKeyFromText } from './audit-signing-key';

// DESIGN §6: a seal link is signed by the orchestrator, the one service that seals calls, under a key only it
// holds: fleet_app may insert links, so a consistently hashed chain alone proves order, not authorship. The key is
// named and identified as C2SP signed-note keys are (key id = SHA-256(name || 0x0A || 0x01 || public key)[:4]), so a
// deployment lists its accepted keys as verifier key strings, `name+hash+base64(0x01 || key)`; a rotated key stays
// listed and its seals stay valid.

/** What is signed: the link's hash under a context line, so the signature means nothing anywhere else. */
export function sealSignedMessage(hash: string): Buffer {
  return Buffer.from(`voice-fleet.seal/1\n${hash}\n`, 'utf8');
}

export interface SealSignature {
  keyId: string;
  /** Ed25519, base64. */
  signature: string;
}

export interface SealSigner {
  /** The verifier key string to list in SEAL_PUBLIC_KEYS. */
  verifierKey: string;
  keyId: string;
  sign: (hash: string) => SealSignature;
}

export const DEFAULT_SEAL_KEY_NAME = 'voice-fleet-orchestrator';

export function sealSigner(privateKey: string | KeyObject, name = DEFAULT_SEAL_KEY_NAME): SealSigner {
  const key = typeof privateKey === 'string' ? privateKeyFromText(privateKey) : privateKey;
  const signer = ed25519Signer(name, key);
  return {
    verifierKey: signer.verifier.text,
    keyId: signer.keyId,
    sign: (hash) => ({
      keyId: signer.keyId,
      signature: signer.sign(sealSignedMessage(hash)).toString('base64'),
    }),
  };
}

export type SealSignatureProblem = 'seal_unsigned' | 'seal_unknown_key' | 'seal_bad_signature';

export type SealSignatureCheck =
  { ok: true; keyName: string } | { ok: false; problem: SealSignatureProblem; detail: string };

/** The seal keys a deployment accepts (SEAL_PUBLIC_KEYS): the current one and every one it rotated away from. */
export class SealKeyring {
  private readonly byId = new Map<string, NoteVerifier[]>();
  readonly keys: string[];

  constructor(verifierKeys: readonly string[]) {
    this.keys = [...new Set(verifierKeys.map((k) => k.trim()).filter((k) => k !== ''))];
    for (const text of this.keys) {
      const verifier = verifierFromKey(text);
      this.byId.set(verifier.keyId, [...(this.byId.get(verifier.keyId) ?? []), verifier]);
    }
  }

  /** A list as configured: verifier key strings separated by commas or white space. */
  static parse(list: string): SealKeyring {
    return new SealKeyring(list.split(/[\s,]+/));
  }

  check(
    hash: string,
    keyId: string | null | undefined,
    signature: string | null | undefined,
  ): SealSignatureCheck {
    if (!keyId || !signature) {
      return { ok: false, problem: 'seal_unsigned', detail: 'the seal carries no signature' };
    }
    const candidates = this.byId.get(keyId);
    if (!candidates) {
      return {
        ok: false,
        problem: 'seal_unknown_key',
        detail: `signed by key ${keyId}, which the deployment does not list`,
      };
    }
    const bytes = Buffer.from(signature, 'base64');
    const by = candidates.find((v) => v.verify(sealSignedMessage(hash), bytes));
    if (!by) {
      return {
        ok: false,
        problem: 'seal_bad_signature',
        detail: `its signature does not hold under key ${keyId}`,
      };
    }
    return { ok: true, keyName: by.name };
  }
}
