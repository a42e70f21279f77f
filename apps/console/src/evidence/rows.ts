import type { EvidenceStage } from '@fleet/api-contract';
import type { Call, StagePayloads } from '@fleet/api-contract';

/** The stage's payload when the stage happened and its row fits the contract; otherwise undefined. */
export function payloadOf<S extends EvidenceStage>(
  call: Pick<Call, 'evidence'>,
  stage: S,
): StagePayloads[S] | undefined {
  const row = call.evidence.rows.find((r) => r.stage === stage);
  if (!row || row.skipped || !row.valid) return undefined;
  return row.payload as StagePayloads[S];
}
