import { z } from 'zod';
import { CALL_ORIGINS } from './calls';

// DESIGN §1: what each of the five evidence rows of a call records. Rows are append-only and hashed into the
// device's chain, so their shape is a contract: readers (API, console, reports) parse them with these schemas.
// Objects are loose: a newer writer may add fields that an older reader keeps.

/** Why a stage has nothing to show (every call has all five rows; a stage that did not happen says why). */
export const skippedStageSchema = z.looseObject({ skipped: z.literal(true), reason: z.string() });

export const discoveryPayloadSchema = z.looseObject({
  board: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  catalog: z
    .looseObject({ versionId: z.string(), version: z.int(), hash: z.string(), discoveredAt: z.string() })
    .nullable(),
  /** The tool's schema as the device declared it (null: the device has no such tool). */
  tool: z
    .looseObject({
      name: z.string(),
      description: z.string(),
      inputSchema: z.unknown(),
      userOnly: z.boolean(),
      sensitive: z.boolean(),
    })
    .nullable(),
});

export const policyRuleResultSchema = z.looseObject({
  rule: z.string(),
  /** The ordering rule or limit it came from (id), and the catalog version a derived rule was read from. */
  ref: z.string().optional(),
  catalogVersionId: z.string().optional(),
  result: z.enum([
    'passed',
    'satisfied_by_prerequisite',
    'refused',
    'awaiting_approval',
    'approved',
    'not_applicable',
  ]),
  detail: z.string().optional(),
});

export const decisionPayloadSchema = z.looseObject({
  requestedBy: z.looseObject({
    origin: z.enum(CALL_ORIGINS),
    operatorId: z.string().optional(),
    apiKeyId: z.string().optional(),
    voiceTurnId: z.string().optional(),
    campaignId: z.string().optional(),
    agentId: z.string().optional(),
    parentCallId: z.string().optional(),
  }),
  request: z.looseObject({
    tool: z.string(),
    arguments: z.unknown(),
    reason: z.string().optional(),
    /** sha256 of the utterance; the text itself lives outside the chain (retention). */
    utteranceHash: z.string().optional(),
    llmToolCall: z.unknown().optional(),
  }),
  /** The state read before acting (the prerequisite a rule ran), when there was one. */
  priorState: z
    .looseObject({ callId: z.string(), tool: z.string(), result: z.unknown(), at: z.string() })
    .optional(),
  rules: z.array(policyRuleResultSchema),
  approval: z
    .looseObject({
      id: z.string(),
      state: z.enum(['approved', 'rejected', 'expired']),
      decidedBy: z.string().optional(),
      decidedAt: z.string().optional(),
      reason: z.string().optional(),
      campaignId: z.string().optional(),
    })
    .optional(),
  outcome: z.enum(['allowed', 'rejected', 'expired', 'cancelled', 'undelivered']),
  reason: z.string().optional(),
});

export const parametersPayloadSchema = z.looseObject({
  arguments: z.unknown(),
  validation: z.looseObject({ ok: z.boolean(), errors: z.array(z.string()) }),
  /** What the firmware itself would have done with these arguments (defaults, truncation, ignored keys). */
  firmwareWouldDo: z.array(z.unknown()),
  limits: z.array(z.looseObject({ group: z.string(), rule: z.string(), ok: z.boolean() })),
  /** The JSON-RPC params as sent, when the call was sent. */
  sent: z.unknown().optional(),
});

export const responsePayloadSchema = z.looseObject({
  outcome: z.enum(['reply', 'no_reply', 'not_sent']),
  jsonrpcId: z.union([z.int(), z.string()]).optional(),
  connectionId: z.string().optional(),
  sentAt: z.string().optional(),
  receivedAt: z.string().optional(),
  latencyMs: z.number().optional(),
  /** The reply exactly as received, base64 (firmware JSON can be invalid). */
  raw: z.string().optional(),
  /** How many Client-Ids the reply repeated (a system-info `uuid`), stored as their hash in raw and text (DESIGN §3). */
  clientIdsHashed: z.int().optional(),
  /** The reply had to be read literally because the firmware did not escape it. */
  repaired: z.string().optional(),
  isError: z.boolean().optional(),
  errorText: z.string().optional(),
  text: z.string().optional(),
  timeoutMs: z.int().optional(),
  reason: z.string().optional(),
});

export const effectPayloadSchema = z.looseObject({
  method: z.enum([
    'readback',
    'reboot_observed',
    'version_observed',
    'reply_is_effect',
    'unverifiable',
    'not_applicable',
    // Announcements: the alert was published on the connection the device holds (nothing more is claimed); the
    // device's `listen start` after `tts stop`, or its return to idle, showed the speech played through.
    'alert_published',
    'playback_observed',
  ]),
  expected: z.unknown().optional(),
  observed: z.unknown().optional(),
  /** The readback's own exchange (its JSON-RPC id and raw reply): part of this row, not a call of its own. */
  readback: z.array(z.unknown()).optional(),
  conclusion: z.string(),
});

export const EVIDENCE_PAYLOAD_SCHEMAS = {
  discovery: discoveryPayloadSchema,
  decision: decisionPayloadSchema,
  parameters: parametersPayloadSchema,
  response: responsePayloadSchema,
  effect: effectPayloadSchema,
} as const;

export type DiscoveryPayload = z.infer<typeof discoveryPayloadSchema>;
export type DecisionPayload = z.infer<typeof decisionPayloadSchema>;
export type ParametersPayload = z.infer<typeof parametersPayloadSchema>;
export type ResponsePayload = z.infer<typeof responsePayloadSchema>;
export type EffectPayload = z.infer<typeof effectPayloadSchema>;
export type SkippedStage = z.infer<typeof skippedStageSchema>;
