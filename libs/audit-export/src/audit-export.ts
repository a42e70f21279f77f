import { sign, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson, CHAIN_LINKS } from '@fleet/domain';
import { publicKeyInfo } from './audit-signing-key';

/**
 * DESIGN §6: an audit export an auditor checks offline: the audit report (its own fields beside these), the chain
 * heads it covers and, with its rows, every link of those chains from the first link of the period's calls to the
 * head (rows of other calls interleaved there included, or the chain could not be recomputed), plus the sealed
 * fields of every call with a link in it. The platform signs the canonical JSON of the whole document but its
 * `signature` (Ed25519), so a field added, removed or changed anywhere fails the signature.
 */
export const AUDIT_EXPORT_FORMAT = 'voice-fleet.audit-export/1';

const hash = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');
const seq = z.string().regex(/^[1-9][0-9]*$/, 'a positive integer');

export const exportLinkSchema = z.strictObject({
  seq,
  callId: z.string(),
  stage: z.enum(CHAIN_LINKS),
  payload: z.unknown(),
  prevHash: hash,
  hash,
  createdAt: z.string(),
  /** A seal link's signer (the orchestrator key's C2SP key id) and its Ed25519 signature over the hash. */
  sealKeyId: z.string().optional(),
  sealSignature: z.string().optional(),
});
export type ExportLink = z.infer<typeof exportLinkSchema>;

export const exportChainSchema = z.strictObject({
  deviceId: z.string(),
  /** The first link's seq, and the hash it points at (GENESIS_HASH when the chain starts there). */
  fromSeq: seq,
  prevHash: hash,
  /** The last link in this export: the device's head as the platform signs it. */
  head: z.strictObject({ seq, hash }),
  /** Every link from fromSeq to the head, in order; absent from an export made without its rows. */
  links: z.array(exportLinkSchema).optional(),
});
export type ExportChain = z.infer<typeof exportChainSchema>;

export const exportCallSchema = z.strictObject({
  callId: z.string(),
  deviceId: z.string(),
  createdAt: z.string(),
  verdict: z.string().nullable(),
  reason: z.string().nullable(),
  sealedAt: z.string().nullable(),
});
export type ExportCall = z.infer<typeof exportCallSchema>;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');

/**
 * DESIGN §6: where the export's seals stand in the evidence log. The checkpoint (a C2SP signed note, signed by the
 * platform's key under the log's origin) made for this export, the one before it and the RFC 9162 consistency
 * proof between them, the orchestrator seal keys the deployment accepts, and an RFC 9162 inclusion proof for each
 * seal link the export carries.
 */
export const exportTransparencySchema = z.strictObject({
  sealKeys: z.array(z.string()),
  checkpoint: z.string(),
  previous: z.string().nullable(),
  consistency: z.array(base64),
  inclusions: z.array(
    z.strictObject({
      deviceId: z.string(),
      seq,
      hash,
      leafIndex: z.int().min(0),
      proof: z.array(base64),
    }),
  ),
});
export type ExportTransparency = z.infer<typeof exportTransparencySchema>;

export const auditSignatureSchema = z.strictObject({
  algorithm: z.literal('Ed25519'),
  /** The raw public key (base64) and its fingerprint: informative; an auditor checks with the key got out of band. */
  publicKey: z.string(),
  fingerprint: z.string(),
  value: z.string(),
});
export type AuditSignature = z.infer<typeof auditSignatureSchema>;

/** The fields the verifier reads; the report's own (calls, approvals, ...) ride along under the signature. */
export const auditExportSchema = z.looseObject({
  format: z.literal(AUDIT_EXPORT_FORMAT),
  generatedAt: z.string(),
  period: z.strictObject({ from: z.string(), to: z.string() }),
  evidence: z.strictObject({
    rows: z.boolean(),
    chains: z.array(exportChainSchema),
    calls: z.array(exportCallSchema).optional(),
  }),
  transparency: exportTransparencySchema.optional(),
  signature: auditSignatureSchema,
});
export type AuditExport = z.infer<typeof auditExportSchema>;
export interface UnsignedAuditExport {
  format: typeof AUDIT_EXPORT_FORMAT;
  generatedAt: string;
  period: { from: string; to: string };
  evidence: AuditExport['evidence'];
  /** The report's own fields. */
  [field: string]: unknown;
}

/** The bytes the signature covers: the canonical JSON of the export without its signature. */
export function signedBytes(document: object): Buffer {
  const { signature: _signature, ...body } = document as { signature?: unknown };
  return Buffer.from(canonicalJson(body), 'utf8');
}

export function signAuditExport(body: UnsignedAuditExport, privateKey: KeyObject): AuditExport {
  const info = publicKeyInfo(privateKey);
  return {
    ...body,
    signature: {
      algorithm: 'Ed25519',
      publicKey: info.publicKey,
      fingerprint: info.fingerprint,
      value: sign(null, signedBytes(body), privateKey).toString('base64'),
    },
  };
}
