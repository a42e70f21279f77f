import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { sealSigner, type SealSignature } from '@fleet/audit-export';
import { resolveSealSigningKey } from '@fleet/config';
import {
  evidenceHash,
  GENESIS_HASH,
  partitionOf,
  toolNameFlags,
  type ChainLink,
  type EvidenceStage,
} from '@fleet/domain';

export interface ToolSpec {
  name: string;
  userOnly?: boolean;
  description?: string;
  inputSchema?: unknown;
}

/** A discovered catalog for a device (as the orchestrator's discovery would record it), made current. */
export async function insertCatalog(
  pool: Pool,
  deviceId: string,
  tools: ToolSpec[],
  version = 1,
): Promise<{ catalogId: string; versionId: string }> {
  const catalogId = randomUUID();
  await pool.query('INSERT INTO tool_catalog (id, hash, tool_count) VALUES ($1, $2, $3)', [
    catalogId,
    `hash-${catalogId}`,
    tools.length,
  ]);
  for (const [position, t] of tools.entries()) {
    await pool.query(
      `INSERT INTO tool (catalog_id, position, name, description, input_schema, user_only, name_flags)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        catalogId,
        position,
        t.name,
        t.description ?? t.name,
        JSON.stringify(t.inputSchema ?? { type: 'object', properties: {} }),
        t.userOnly ?? false,
        toolNameFlags(t.name), // as discovery notes them
      ],
    );
  }
  const versionId = randomUUID();
  await pool.query(
    `INSERT INTO device_catalog_version (id, device_id, version, catalog_id, exchanges) VALUES ($1, $2, $3, $4, '[]')`,
    [versionId, deviceId, version, catalogId],
  );
  await pool.query('UPDATE device SET catalog_version_id = $2 WHERE id = $1', [deviceId, versionId]);
  return { catalogId, versionId };
}

/** One catalog shared by many devices (identical tool lists share a catalog), current for each. */
export async function insertSharedCatalog(pool: Pool, deviceIds: string[], tools: ToolSpec[]): Promise<void> {
  const [first, ...rest] = deviceIds;
  if (!first) return;
  const { catalogId } = await insertCatalog(pool, first, tools);
  await pool.query(
    `WITH v AS (INSERT INTO device_catalog_version (id, device_id, version, catalog_id, exchanges)
                SELECT gen_random_uuid(), d, 1, $2, '[]' FROM unnest($1::text[]) d RETURNING id, device_id)
     UPDATE device SET catalog_version_id = v.id FROM v WHERE device.id = v.device_id`,
    [rest, catalogId],
  );
}

/** A call row as the orchestrator leaves it (state, verdict), without going through the pipeline. */
export async function insertCall(
  pool: Pool,
  c: {
    deviceId: string;
    tool?: string;
    state?: string;
    verdict?: string | null;
    operatorId?: string | null;
    origin?: string;
    reason?: string | null;
    createdAt?: Date;
  },
): Promise<string> {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO call (id, device_id, partition, tool, arguments, origin, operator_id, reason, state, verdict,
                       deadline_at, created_at, sealed_at)
     VALUES ($1, $2, $3, $4, '{}', $5, $6, $7, $8, $9, now() + interval '10 minutes', $10::timestamptz,
             CASE WHEN $9::"Verdict" IS NULL THEN NULL ELSE $10::timestamptz END)`,
    [
      id,
      c.deviceId,
      partitionOf(c.deviceId),
      c.tool ?? 'self.get_device_status',
      c.origin ?? 'operator',
      c.operatorId ?? null,
      c.reason ?? null,
      c.state ?? (c.verdict ? 'finished' : 'queued'),
      c.verdict ?? null,
      c.createdAt ?? new Date(),
    ],
  );
  return id;
}

export const VALID_PAYLOADS: Record<EvidenceStage, unknown> = {
  discovery: { board: 'bread-compact-wifi', firmwareVersion: '1.6.0', catalog: null, tool: null },
  decision: {
    requestedBy: { origin: 'operator' },
    request: { tool: 'self.get_device_status', arguments: {} },
    rules: [],
    outcome: 'allowed',
  },
  parameters: { arguments: {}, validation: { ok: true, errors: [] }, firmwareWouldDo: [], limits: [] },
  response: { outcome: 'reply', jsonrpcId: 7, isError: false, text: '{"audio_speaker":{"volume":40}}' },
  effect: { method: 'reply_is_effect', conclusion: 'the reply is the effect' },
};

/**
 * Evidence rows chained as the orchestrator's writer chains them: per device, seq after seq from GENESIS_HASH
 * (or the device's current head), each hash over the previous one and the row's canonical content.
 */
/** The development orchestrator key, as the orchestrator signs seals with it in tests (DESIGN §6). */
export const devSealSigner = sealSigner(resolveSealSigningKey(undefined, 'test'));

/**
 * Chains rows onto their devices' heads as the writer does, each seal link signed with the development orchestrator
 * key unless `signSeal` says otherwise (a forger holding fleet_app has no key: `signSeal: null`).
 */
export async function insertEvidenceChain(
  pool: Pool,
  rows: { callId: string; deviceId: string; stage: ChainLink; payload?: unknown }[],
  signSeal: ((hash: string) => SealSignature) | null = devSealSigner.sign,
): Promise<{ id: string; seq: number; hash: string }[]> {
  const heads = new Map<string, { seq: number; hash: string }>();
  const written: { id: string; seq: number; hash: string }[] = [];
  for (const r of rows) {
    if (!heads.has(r.deviceId)) {
      const { rows: last } = await pool.query<{ seq: string; hash: string }>(
        'SELECT seq::text, hash FROM evidence e WHERE device_id = $1 ORDER BY e.seq DESC LIMIT 1',
        [r.deviceId],
      );
      heads.set(
        r.deviceId,
        last[0] ? { seq: Number(last[0].seq), hash: last[0].hash } : { seq: 0, hash: GENESIS_HASH },
      );
    }
    const head = heads.get(r.deviceId)!;
    const seq = head.seq + 1;
    const createdAt = new Date(Date.now() + seq).toISOString();
    const payload =
      r.payload ?? (r.stage === 'seal' ? await sealPayloadOf(pool, r.callId) : VALID_PAYLOADS[r.stage]);
    const hash = evidenceHash(head.hash, {
      callId: r.callId,
      deviceId: r.deviceId,
      stage: r.stage,
      seq,
      payload,
      createdAt,
    });
    const signature = r.stage === 'seal' && signSeal ? signSeal(hash) : undefined;
    const { rows: inserted } = await pool.query<{ id: string }>(
      `INSERT INTO evidence (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at, seal_key_id,
                             seal_signature)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::text`,
      [
        r.callId,
        r.deviceId,
        r.stage,
        seq,
        JSON.stringify(payload),
        head.hash,
        hash,
        createdAt,
        signature?.keyId ?? null,
        signature?.signature ?? null,
      ],
    );
    heads.set(r.deviceId, { seq, hash });
    written.push({ id: inserted[0]!.id, seq, hash });
  }
  return written;
}

/** What the orchestrator chains as a call's seal: its row's verdict, reason and sealed time. */
async function sealPayloadOf(pool: Pool, callId: string): Promise<unknown> {
  const { rows } = await pool.query<{ verdict: string; reason: string | null; sealed_at: Date | null }>(
    'SELECT verdict, verdict_reason AS reason, sealed_at FROM call WHERE id = $1',
    [callId],
  );
  const call = rows[0]!;
  return { verdict: call.verdict, reason: call.reason, sealedAt: call.sealed_at?.toISOString() ?? null };
}

/** A sealed call's five rows and its seal, as the orchestrator chains them. */
export const SEALED_CALL_LINKS: ChainLink[] = [
  'discovery',
  'decision',
  'parameters',
  'response',
  'effect',
  'seal',
];
