import type { ClientBase, Pool } from 'pg';
import type { CallTransition } from './call-step';

/** A step as the statement reads it (one element of its JSON document). */
export interface StepDocument {
  callId: string;
  deviceId: string;
  /** The lease the step is written under: it moves nothing unless this replica still holds it. */
  lease: string;
  to: CallTransition['to'];
  jsonrpcId?: number | null;
  connectionId?: string | null;
  catalogVersionId?: string | null;
  effectDeadlineAt?: string;
  verdict?: string;
  reason?: string;
  result?: unknown;
  sealedAt?: string;
  deviceStatus?: unknown;
}

/** An evidence row chained and ready to insert (one element of the statement's second JSON document). */
export interface EvidenceDocument {
  callId: string;
  deviceId: string;
  stage: string;
  seq: string;
  payload: unknown;
  prevHash: string;
  hash: string;
  createdAt: string;
  /** A seal link's signature over its hash and the key id that made it (DESIGN §6); absent on other links. */
  sealKeyId?: string;
  sealSignature?: string;
}

/** What one batch of steps did: the leases still held, and the calls that moved (with `sent_at` for `sending`). */
export interface StepsApplied {
  leases: Set<string>;
  moved: Map<string, { sentAt: Date | null }>;
}

// DESIGN §1 and §6 in one statement, in autocommit: the leases are locked FOR KEY SHARE (a takeover locks them
// FOR UPDATE first, so it waits for this commit, and the holder's own renewals do not), each call moves only under
// a lease still held and only as its guard allows (the same guards as the one-call statements of
// call-state.repository), and a call's evidence rows are inserted only if its call moved, so a row and its
// state change commit together or not at all. The seal link of a `finished` step is among its rows; the deferred
// trigger call_sealed_with_seal checks it at commit. A whole batch of calls is one round trip and one commit
// (docs/BENCHMARKS.md §11: a statement per call state change was most of what Postgres spent per call).
const APPLY_STEPS = `
WITH fence AS MATERIALIZED (
  SELECT l.name FROM service_lease l
   WHERE l.holder = $1 AND l.expires_at > now()
     AND (l.name, l.token) IN (SELECT f.name, f.token FROM jsonb_to_recordset($2::jsonb) AS f(name text, token bigint))
     FOR KEY SHARE
),
step AS MATERIALIZED (
  SELECT s.* FROM jsonb_to_recordset($3::jsonb) AS s(
           "callId" uuid, "deviceId" text, lease text, "to" text, "jsonrpcId" int, "connectionId" text,
           "catalogVersionId" uuid, "effectDeadlineAt" timestamptz, verdict "Verdict", reason text, result jsonb,
           "sealedAt" timestamptz, "deviceStatus" jsonb)
   WHERE s.lease IN (SELECT name FROM fence)
),
sending AS (
  UPDATE call c SET state = 'sending', jsonrpc_id = s."jsonrpcId", connection_id = s."connectionId",
                    catalog_version_id = s."catalogVersionId", sent_at = now()
    FROM step s
   WHERE s."to" = 'sending' AND c.id = s."callId" AND c.verdict IS NULL AND c.cancelled_by IS NULL
     AND c.state IN ('queued', 'waiting_for_device', 'awaiting_approval')
  RETURNING c.id, c.sent_at
),
sent AS (
  UPDATE call c SET state = 'sent'
    FROM step s
   WHERE s."to" = 'sent' AND c.id = s."callId" AND c.verdict IS NULL AND c.state = 'sending'
  RETURNING c.id
),
parked AS (
  UPDATE call c SET state = s."to"::"CallState", effect_deadline_at = coalesce(s."effectDeadlineAt", c.effect_deadline_at)
    FROM step s
   WHERE s."to" IN ('waiting_for_device', 'verifying') AND c.id = s."callId" AND c.verdict IS NULL
     AND c.cancelled_by IS NULL
  RETURNING c.id
),
sealed AS (
  UPDATE call c SET state = 'finished', verdict = s.verdict, verdict_reason = s.reason, result = s.result,
                    sealed_at = s."sealedAt"
    FROM step s
   WHERE s."to" = 'finished' AND c.id = s."callId" AND c.verdict IS NULL
  RETURNING c.id
),
moved AS (
  SELECT id, sent_at FROM sending
  UNION ALL SELECT id, NULL FROM sent
  UNION ALL SELECT id, NULL FROM parked
  UNION ALL SELECT id, NULL FROM sealed
),
status AS (
  UPDATE device d SET last_status = s."deviceStatus", last_status_at = now()
    FROM step s JOIN sealed ON sealed.id = s."callId"
   WHERE s."deviceStatus" IS NOT NULL AND d.id = s."deviceId"
),
written AS (
  INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at, seal_key_id,
                        seal_signature)
  SELECT e."callId", e."deviceId", e.stage, e.seq, e.payload, e."prevHash", e.hash, e."createdAt", e."sealKeyId",
         e."sealSignature"
    FROM jsonb_to_recordset($4::jsonb) AS e(
           "callId" uuid, "deviceId" text, stage "EvidenceStage", seq bigint, payload jsonb, "prevHash" text,
           hash text, "createdAt" timestamptz, "sealKeyId" text, "sealSignature" text)
   WHERE e."callId" IN (SELECT id FROM moved)
)
SELECT (SELECT coalesce(array_agg(name), '{}') FROM fence) AS leases,
       (SELECT coalesce(json_agg(json_build_object('id', id, 'sentAt', sent_at)), '[]') FROM moved) AS moved`;

/** The runner's call steps (DESIGN §1: one owner of call state), a batch at a time. */
export const callStepsRepository = {
  /**
   * Applies a batch of steps under the holder's leases, each call at most once. A named statement: each
   * connection parses and plans it once.
   */
  async apply(
    db: Pool | ClientBase,
    holder: string,
    leases: readonly { name: string; token: string }[],
    steps: readonly StepDocument[],
    rows: readonly EvidenceDocument[],
  ): Promise<StepsApplied> {
    const { rows: result } = await db.query<{
      leases: string[];
      moved: { id: string; sentAt: string | null }[];
    }>({
      name: 'apply-call-steps',
      text: APPLY_STEPS,
      values: [holder, JSON.stringify(leases), JSON.stringify(steps), JSON.stringify(rows)],
    });
    const applied = result[0]!;
    return {
      leases: new Set(applied.leases),
      moved: new Map(
        applied.moved.map((m) => [m.id, { sentAt: m.sentAt === null ? null : new Date(m.sentAt) }]),
      ),
    };
  },
};
