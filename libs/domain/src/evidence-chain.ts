import { createHash } from 'node:crypto';
import type { EvidenceStage } from './evidence-stages';

// DESIGN §6: each device's evidence rows form a hash chain. A row's hash covers the previous hash and the row's
// content in a canonical form that survives the round trip through Postgres jsonb (keys sorted, values as JSON),
// so the integrity check recomputes exactly what the writer computed.

export const GENESIS_HASH = '0'.repeat(64);

export interface ChainedRow {
  callId: string;
  deviceId: string;
  stage: EvidenceStage;
  seq: bigint | number;
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

/** JSON with object keys sorted at every level; the input is first normalised as JSON would store it. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value ?? null)) as unknown));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
