import { z } from 'zod';
import type {
  DecisionPayload,
  DiscoveryPayload,
  EffectPayload,
  ParametersPayload,
  ResponsePayload,
  SkippedStage,
} from '@fleet/domain';
import { instant } from './common';
import { EVIDENCE_STAGES, type EvidenceStage } from './vocabulary';

// DESIGN §1: a call's five evidence rows. The API parses each payload with its stage's schema (libs/domain
// evidence-payloads) and says whether it fit; this contract checks the row's frame and types the payload with
// the domain's types (its schemas are not imported: they would bring node:crypto into the console).

const payloadObject = <T>() =>
  z.custom<T>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'a JSON object');

const rowBase = {
  id: z.string(),
  seq: z.string(),
  createdAt: instant,
  prevHash: z.string(),
  hash: z.string(),
};

export type {
  DecisionPayload,
  DiscoveryPayload,
  EffectPayload,
  ParametersPayload,
  ResponsePayload,
  SkippedStage,
};

/** Each stage's payload contract (libs/domain evidence-payloads). */
export interface StagePayloads {
  discovery: DiscoveryPayload;
  decision: DecisionPayload;
  parameters: ParametersPayload;
  response: ResponsePayload;
  effect: EffectPayload;
}

const stageRow = <S extends EvidenceStage>(stage: S) =>
  z.union([
    z.strictObject({
      ...rowBase,
      stage: z.literal(stage),
      skipped: z.literal(true).describe('the stage did not happen; the payload says why'),
      valid: z.literal(true),
      payload: payloadObject<SkippedStage>(),
    }),
    z.strictObject({
      ...rowBase,
      stage: z.literal(stage),
      skipped: z.literal(false),
      valid: z.literal(true),
      payload: payloadObject<StagePayloads[S]>(),
    }),
    z.strictObject({
      ...rowBase,
      stage: z.literal(stage),
      skipped: z.literal(false),
      valid: z.literal(false).describe('the payload does not fit its stage: shown as stored, flagged'),
      problems: z.array(z.string()),
      payload: z.unknown(),
    }),
  ]);

/** One evidence row: skipped (and says why), valid for its stage, or shown as stored with its problems. */
export const evidenceRowSchema = z.union([
  stageRow('discovery'),
  stageRow('decision'),
  stageRow('parameters'),
  stageRow('response'),
  stageRow('effect'),
]);
export type EvidenceRow = z.infer<typeof evidenceRowSchema>;

export const evidenceSchema = z.strictObject({
  complete: z.boolean().describe('every call ends with all five rows; fewer on a finished call is a gap'),
  missing: z.array(z.enum(EVIDENCE_STAGES)),
  rows: z.array(evidenceRowSchema),
});
export type Evidence = z.infer<typeof evidenceSchema>;
