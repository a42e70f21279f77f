import { z } from 'zod';
import type { SealPayload } from './evidence-chain';
import { VERDICTS } from './verdicts';

/** A call row's sealed fields as stored (sealedAt as ISO 8601 with milliseconds). */
export interface SealedFields {
  callId: string;
  deviceId: string;
  verdict: string | null;
  reason: string | null;
  sealedAt: string | null;
}

/** A call's seal link as stored: the device whose chain holds it, and its payload. */
export interface SealLinkFields {
  deviceId: string;
  payload: unknown;
}

export type SealField = 'seal' | 'deviceId' | 'verdict' | 'reason' | 'sealedAt';

export interface SealMismatch {
  callId: string;
  deviceId: string;
  field: SealField;
  /** What the call row says, and what its seal says (absent when there is no readable seal). */
  call: string | null;
  seal: string | null;
  detail: string;
}

export const sealPayloadSchema: z.ZodType<SealPayload> = z.strictObject({
  verdict: z.enum(VERDICTS),
  reason: z.string().nullable(),
  sealedAt: z.string().nullable(),
});

/**
 * DESIGN §6: a sealed call row must say what its seal in the chain says. Compares one call with its seal (either
 * may be missing) and names every field that differs; nothing when they agree, or when neither is sealed.
 */
export function sealMismatches(call: SealedFields, seal: SealLinkFields | undefined): SealMismatch[] {
  const named = (
    field: SealField,
    callValue: string | null,
    sealValue: string | null,
    detail: string,
  ): SealMismatch => ({
    callId: call.callId,
    deviceId: call.deviceId,
    field,
    call: callValue,
    seal: sealValue,
    detail,
  });
  if (!seal) {
    return call.verdict === null
      ? []
      : [named('seal', call.verdict, null, 'the call is sealed but its chain holds no seal for it')];
  }
  const parsed = sealPayloadSchema.safeParse(seal.payload);
  if (!parsed.success) return [named('seal', call.verdict, null, 'its seal cannot be read')];
  const s = parsed.data;
  const out: SealMismatch[] = [];
  if (seal.deviceId !== call.deviceId)
    out.push(named('deviceId', call.deviceId, seal.deviceId, "the seal sits in another device's chain"));
  if (call.verdict !== s.verdict)
    out.push(named('verdict', call.verdict, s.verdict, 'the call row says another verdict than its seal'));
  if (call.reason !== s.reason)
    out.push(named('reason', call.reason, s.reason, 'the call row says another reason than its seal'));
  if (call.sealedAt !== s.sealedAt)
    out.push(named('sealedAt', call.sealedAt, s.sealedAt, 'the call row says another sealed time'));
  return out;
}
