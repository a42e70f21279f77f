import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { err, ok, type ProtocolError, type Result } from '../result';

/** xiaozhi §4.3: the device answers the challenge under eFuse HMAC KEY0, a 256-bit key. */
export const EFUSE_KEY_BYTES = 32;
const WRAPPING_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A configured AES-256 key that encrypts imported eFuse keys at rest; `id` names it in each sealed row. */
export interface WrappingKey {
  readonly id: string;
  readonly key: Uint8Array;
}

/** The key's name in sealed rows: a hash prefix, so rotation can tell which configured key opens a row. */
export function wrappingKeyOf(key: Uint8Array): WrappingKey {
  if (key.length !== WRAPPING_KEY_BYTES) throw new Error(`a wrapping key is ${WRAPPING_KEY_BYTES} bytes`);
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

// The serial number is authenticated with its key, so a sealed key copied onto another serial's row fails.
const aad = (serialNumber: string) => Buffer.from(`efuse-key:${serialNumber}`, 'utf8');

/**
 * AES-256-GCM of one eFuse key: `nonce ‖ tag ‖ ciphertext`. The nonce comes from the caller (random, 12 bytes,
 * never reused under one wrapping key), which keeps this function pure.
 */
export function sealEfuseKey(
  wrapping: WrappingKey,
  serialNumber: string,
  efuseKey: Uint8Array,
  nonce: Uint8Array,
): Buffer {
  if (efuseKey.length !== EFUSE_KEY_BYTES) throw new Error(`an eFuse key is ${EFUSE_KEY_BYTES} bytes`);
  if (nonce.length !== NONCE_BYTES) throw new Error(`the nonce is ${NONCE_BYTES} bytes`);
  const cipher = createCipheriv('aes-256-gcm', wrapping.key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(serialNumber));
  const ciphertext = Buffer.concat([cipher.update(efuseKey), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]);
}

export type EfuseKeyOpenError = ProtocolError<'malformed_sealed_key' | 'not_authentic'>;

/** The eFuse key back, or why not (another wrapping key, another serial's row, a changed byte). */
export function openEfuseKey(
  wrapping: WrappingKey,
  serialNumber: string,
  sealed: Uint8Array,
): Result<Buffer, EfuseKeyOpenError> {
  if (sealed.length !== NONCE_BYTES + TAG_BYTES + EFUSE_KEY_BYTES) {
    return err({ kind: 'malformed_sealed_key', message: `${sealed.length} bytes` });
  }
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', wrapping.key, bytes.subarray(0, NONCE_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(aad(serialNumber));
  decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  try {
    return ok(Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]));
  } catch {
    return err({ kind: 'not_authentic', message: 'the sealed key does not open under this wrapping key' });
  }
}
