import {
  EVIDENCE_PAYLOAD_SCHEMAS,
  EVIDENCE_STAGES,
  skippedStageSchema,
  type EvidenceStage,
} from '@fleet/domain';
import type { EvidenceRow } from './calls.repository';

export interface EvidenceRowView {
  id: string;
  stage: EvidenceStage;
  seq: string;
  createdAt: string;
  prevHash: string;
  hash: string;
  /** The stage did not happen; the row says why. */
  skipped: boolean;
  /** The payload fits the stage's contract (libs/domain). A row that does not is shown as stored, flagged. */
  valid: boolean;
  problems?: string[];
  payload: unknown;
}

export interface EvidenceView {
  /** Every call ends with all five rows; fewer on a finished call is a gap the audit report counts. */
  complete: boolean;
  missing: EvidenceStage[];
  rows: EvidenceRowView[];
}

/** The five rows of a call in stage order, each parsed with its stage's schema. */
export function evidenceView(rows: EvidenceRow[]): EvidenceView {
  const byStage = new Map(rows.map((r) => [r.stage, r]));
  const missing = EVIDENCE_STAGES.filter((s) => !byStage.has(s));
  return {
    complete: missing.length === 0,
    missing,
    rows: EVIDENCE_STAGES.flatMap((stage) => {
      const row = byStage.get(stage);
      return row ? [rowView(row)] : [];
    }),
  };
}

function rowView(row: EvidenceRow): EvidenceRowView {
  const base = {
    id: row.id,
    stage: row.stage,
    seq: row.seq,
    createdAt: row.createdAt.toISOString(),
    prevHash: row.prevHash,
    hash: row.hash,
  };
  const skipped = skippedStageSchema.safeParse(row.payload);
  if (skipped.success) return { ...base, skipped: true, valid: true, payload: skipped.data };
  const parsed = EVIDENCE_PAYLOAD_SCHEMAS[row.stage].safeParse(row.payload);
  if (parsed.success) return { ...base, skipped: false, valid: true, payload: parsed.data };
  return {
    ...base,
    skipped: false,
    valid: false,
    problems: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`),
    payload: row.payload,
  };
}
