import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { readJsonObject } from '../json/read-json-object';
import { err, ok, type ProtocolError, type Result } from '../result';

/**
 * xiaozhi §4.1: `Serial-Number` is eFuse USER_DATA read as a C string (32 bytes at most); printable ASCII is
 * all a factory writes there. Anything longer or stranger is not a serial this platform binds.
 */
export const SERIAL_NUMBER = /^[\x21-\x7e]{1,32}$/;
export const serialNumberSchema = z.string().regex(SERIAL_NUMBER, 'printable ASCII, 1 to 32 characters');

/** The challenges the broker hands out: 16 random bytes as lower-case hex. */
export const ACTIVATION_CHALLENGE = /^[0-9a-f]{32}$/;
const HMAC_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * xiaozhi §4.3, Ota::GetActivationPayload: cJSON of the serial, the challenge and the HMAC-SHA256 of the
 * challenge under eFuse KEY0 as lower-case hex (`%02x`). A target without the HMAC peripheral sends an empty hmac.
 */
export const activationProofSchema = z.object({
  algorithm: z.literal('hmac-sha256'),
  serial_number: serialNumberSchema,
  challenge: z.string().regex(ACTIVATION_CHALLENGE, 'a challenge this platform issued'),
  hmac: z.string().regex(HMAC_HEX, '64 hex digits'),
});

export type ActivationRequest =
  | { readonly kind: 'plain' }
  | {
      readonly kind: 'proof';
      readonly serialNumber: string;
      readonly challenge: string;
      readonly hmac: string;
    };

export type ActivationBodyError = ProtocolError<'invalid_activation_body'>;

/** `{}` (a device without an eFuse serial) or a proof; anything else is refused, never thrown. */
export function readActivationRequest(
  body: Uint8Array | undefined,
): Result<ActivationRequest, ActivationBodyError> {
  if (body === undefined || body.length === 0) return ok({ kind: 'plain' });
  const json = readJsonObject(body, 4096);
  if (!json.ok) return err({ kind: 'invalid_activation_body', message: json.error.message });
  if (Object.keys(json.value).length === 0) return ok({ kind: 'plain' });
  const parsed = activationProofSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err({
      kind: 'invalid_activation_body',
      message: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'not an activation proof'}`,
    });
  }
  const p = parsed.data;
  return ok({ kind: 'proof', serialNumber: p.serial_number, challenge: p.challenge, hmac: p.hmac });
}

/** What the device computes: HMAC-SHA256 of the challenge's bytes under its eFuse key, lower-case hex. */
export function activationHmac(efuseKey: Uint8Array, challenge: string): string {
  return createHmac('sha256', efuseKey).update(challenge, 'utf8').digest('hex');
}

/** Compares in constant time (the answer must not say how many leading digits were right). */
export function verifyActivationHmac(efuseKey: Uint8Array, challenge: string, hmacHex: string): boolean {
  const expected = Buffer.from(activationHmac(efuseKey, challenge), 'hex');
  const wellFormed = HMAC_HEX.test(hmacHex);
  const given = wellFormed ? Buffer.from(hmacHex, 'hex') : Buffer.alloc(expected.length);
  return timingSafeEqual(expected, given) && wellFormed;
}
