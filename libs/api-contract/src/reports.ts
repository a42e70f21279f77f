import { z } from 'zod';
import { instant } from './common';
import {
  APPROVAL_STATES,
  CALL_ORIGINS,
  CAMPAIGN_STATES,
  DIALECTS,
  EVIDENCE_STAGES,
  VERDICTS,
} from './vocabulary';

// DESIGN §6: the audit report (JSON, signed) and the integrity check. The export's envelope (format, chains,
// signature) is what libs/audit-export verifies offline; this contract describes the whole answer.

const truncatedList = <T extends z.ZodType>(item: T) =>
  z.strictObject({ items: z.array(item), truncated: z.boolean() });
const count = z.int();
const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');
const seq = z.string().regex(/^[1-9][0-9]*$/, 'a positive integer');
const chainLink = z.enum([...EVIDENCE_STAGES, 'seal']);

const exportChain = z.strictObject({
  deviceId: z.string(),
  fromSeq: seq,
  prevHash: hex64,
  head: z.strictObject({ seq, hash: hex64 }),
  links: z
    .array(
      z.strictObject({
        seq,
        callId: z.string(),
        stage: chainLink,
        payload: z.unknown(),
        prevHash: hex64,
        hash: hex64,
        createdAt: instant,
        sealKeyId: z.string().optional().describe("a seal link's signer: the orchestrator key's C2SP key id"),
        sealSignature: z.string().optional().describe("Ed25519 over the seal link's hash, base64"),
      }),
    )
    .optional(),
});

const exportCall = z.strictObject({
  callId: z.string(),
  deviceId: z.string(),
  createdAt: instant,
  verdict: z.enum(VERDICTS).nullable(),
  reason: z.string().nullable(),
  sealedAt: instant.nullable(),
});

/** GET /reports/audit?format=json. */
export const auditReportSchema = z.strictObject({
  format: z.string().describe('voice-fleet.audit-export/1'),
  generatedAt: instant,
  period: z.strictObject({ from: instant, to: instant, dialect: z.enum(DIALECTS).optional() }),
  calls: z.strictObject({
    total: count,
    byVerdict: z
      .partialRecord(z.enum([...VERDICTS, 'unsealed']), count)
      .describe('`unsealed`: still running'),
    byOrigin: z.partialRecord(z.enum(CALL_ORIGINS), count),
    byTool: z.array(z.strictObject({ tool: z.string(), calls: count, verified: count })),
    byOperator: z.array(z.strictObject({ operatorId: z.uuid(), email: z.string(), calls: count })),
    byDialect: z.partialRecord(z.enum(DIALECTS), count),
  }),
  approvals: truncatedList(
    z.strictObject({
      id: z.uuid(),
      callId: z.uuid().nullable(),
      campaignId: z.uuid().nullable(),
      deviceId: z.string().nullable(),
      tool: z.string(),
      state: z.enum(APPROVAL_STATES),
      requestedBy: z.string().describe("the requester's email"),
      requestedAt: instant,
      decidedBy: z.string().nullable().describe("the approver's email"),
      decidedAt: instant.nullable(),
      reason: z.string().nullable(),
      expiresAt: instant,
    }),
  ),
  campaigns: truncatedList(
    z.strictObject({
      id: z.uuid(),
      name: z.string(),
      state: z.enum(CAMPAIGN_STATES),
      createdBy: z.string().describe("the creator's email"),
      createdAt: instant,
      startedAt: instant.nullable(),
      finishedAt: instant.nullable(),
      stateReason: z.string().nullable(),
      action: z.unknown(),
      targets: z.record(z.string(), count),
    }),
  ),
  effectNotVerified: truncatedList(
    z.strictObject({
      id: z.uuid(),
      deviceId: z.string(),
      dialect: z.enum(DIALECTS),
      tool: z.string(),
      origin: z.enum(CALL_ORIGINS),
      verdict: z.enum(VERDICTS),
      verdictReason: z.string().nullable(),
      createdAt: instant,
    }),
  ).extend({ total: count }),
  rolledBackLater: truncatedList(
    z.strictObject({
      callId: z.uuid(),
      deviceId: z.string(),
      reachedVersion: z.string(),
      reportedVersion: z.string(),
      detectedAt: instant,
    }),
  )
    .extend({ total: count })
    .describe("DESIGN §5: the period's verified upgrades a device later came back from on an older version"),
  evidenceCompleteness: truncatedList(
    z.strictObject({
      id: z.uuid(),
      deviceId: z.string(),
      tool: z.string(),
      verdict: z.enum(VERDICTS),
      missing: z.array(z.enum(EVIDENCE_STAGES)),
    }),
  ).extend({ sealedCalls: count, complete: count, incomplete: count }),
  evidence: z.strictObject({
    rows: z.boolean(),
    chains: z.array(exportChain),
    calls: z.array(exportCall).optional(),
  }),
  transparency: z
    .strictObject({
      sealKeys: z
        .array(z.string())
        .describe('the orchestrator seal keys the deployment accepts (verifier key strings)'),
      checkpoint: z.string().describe('the signed checkpoint (C2SP signed-note) made for this export'),
      previous: z.string().nullable().describe('the checkpoint before it, if any'),
      consistency: z
        .array(z.string())
        .describe('RFC 9162 consistency proof from the previous checkpoint, base64'),
      inclusions: z.array(
        z.strictObject({
          deviceId: z.string(),
          seq,
          hash: hex64,
          leafIndex: count,
          proof: z.array(z.string()),
        }),
      ),
    })
    .optional()
    .describe('DESIGN §6: the checkpoint the export is committed in, and the proofs of its seals'),
  signature: z.strictObject({
    algorithm: z.literal('Ed25519'),
    publicKey: z.string(),
    fingerprint: z.string(),
    value: z.string(),
  }),
});
export type AuditReport = z.infer<typeof auditReportSchema>;

export const AUDIT_CSV_SECTIONS = ['calls', 'approvals', 'campaigns', 'summary'] as const;
export type AuditCsvSection = (typeof AUDIT_CSV_SECTIONS)[number];

/** GET /reports/audit/signing-key. */
export const signingKeySchema = z.strictObject({
  algorithm: z.literal('Ed25519'),
  publicKey: z
    .string()
    .describe('the raw 32-byte public key, base64 (what `audit:verify --public-key` takes)'),
  publicKeyPem: z.string(),
  fingerprint: z.string().describe('`sha256:<hex>` of the raw key, to compare with the one got out of band'),
});

/** GET /reports/integrity: the evidence chains, walked. */
export const integrityReportSchema = z.strictObject({
  ok: z.boolean(),
  checkedDevices: count,
  checkedRows: count,
  checkedHeads: count,
  checkedSeals: count,
  broken: z
    .array(
      z.strictObject({
        deviceId: z.string(),
        seq: z.string(),
        evidenceId: z.string(),
        callId: z.string(),
        stage: chainLink.describe('the five stages, or the call’s seal link'),
        problem: z.enum(['hash_mismatch', 'prev_hash_mismatch', 'seq_gap', 'head_mismatch']),
        detail: z.string(),
      }),
    )
    .describe('the first broken row of each device whose chain is broken'),
  sealMismatches: z
    .array(
      z.strictObject({
        callId: z.string(),
        deviceId: z.string(),
        field: z.enum(['seal', 'deviceId', 'verdict', 'reason', 'sealedAt']),
        call: z.string().nullable(),
        seal: z.string().nullable(),
        detail: z.string(),
        sealSeq: z.string().nullable(),
        evidenceId: z.string().nullable(),
      }),
    )
    .describe('sealed calls whose row no longer says what their seal says, field by field'),
  sealMismatchCount: count,
  sealSignatureProblems: z
    .array(
      z.strictObject({
        callId: z.string(),
        deviceId: z.string(),
        sealSeq: z.string(),
        evidenceId: z.string(),
        problem: z.enum(['seal_unsigned', 'seal_unknown_key', 'seal_bad_signature']),
        detail: z.string(),
      }),
    )
    .describe('seal links not signed by an orchestrator key the deployment lists (the first 1,000)'),
  sealSignatureProblemCount: count,
  checkpoint: z
    .strictObject({
      origin: z.string(),
      size: count,
      checkedLeaves: count,
      problems: z.array(
        z.strictObject({
          deviceId: z.string(),
          seq: z.string(),
          problem: z.enum([
            'checkpoint_unreadable',
            'checkpointed_link_missing',
            'checkpointed_link_changed',
          ]),
          detail: z.string(),
        }),
      ),
    })
    .nullable()
    .describe('the latest checkpoint compared with the database; null when none was written yet'),
});
export type IntegrityReport = z.infer<typeof integrityReportSchema>;
