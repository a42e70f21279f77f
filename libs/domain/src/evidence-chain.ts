import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { EVIDENCE_STAGES } from './evidence-stages';
import type { Verdict } from './verdicts';

// DESIGN §6: each device's evidence rows form a hash chain. A row's hash covers the previous hash and the row's
// content in a canonical form that survives the round trip through Postgres jsonb (keys sorted, values as JSON),
// so the integrity check recomputes exactly what the writer computed.

export const GENESIS_HASH = '0'.repeat(64);

/**
 * DESIGN §6: a call's seal (verdict, reason, time) is a link of the device's chain too, right after the call's
 * last rows and committed with them. It is not a sixth stage: reports, the console and /mcp show the five.
 */
export const SEAL_LINK = 'seal';
export const CHAIN_LINKS = [...EVIDENCE_STAGES, SEAL_LINK] as const;
export type ChainLink = (typeof CHAIN_LINKS)[number];

/** What a seal link's payload holds: the call row's verdict, verdict_reason and sealed_at, as sealed. */
export interface SealPayload {
  verdict: Verdict;
  reason: string | null;
  /** ISO 8601 with milliseconds (the column keeps milliseconds); null only on seals backfilled for old calls. */
  sealedAt: string | null;
}

export interface ChainedRow {
  callId: string;
  deviceId: string;
  stage: ChainLink;
  seq: bigint | number | string;
  payload: unknown;
  /** ISO 8601 with milliseconds: the column keeps milliseconds, and the writer sets it. */
  createdAt: string;
}

export function evidenceHash(prevHash: string, row: ChainedRow): string {
  const content = canonicalJson({
    callId: row.callId,
    createdAt: row.createdAt,
    deviceId: row.deviceId,
    payload: row.payload,
    seq: String(row.seq),
    stage: row.stage,
  });
  return createHash('sha256').update(prevHash).update('\n').update(content).digest('hex');
}
