import { queryCompiler, sql, type Database, type Row } from '../../client/kysely';
import { executeNamed, type StatementTarget } from '../named-statements.repository';
import { selectCallRecord } from './call-columns.repository';
import { toCallRecord, type CallRecord } from './call-record';

/** What a producer sets on a new call; the id and partition are the caller's to compute. */
export interface NewCall {
  id: string;
  device_id: string;
  partition: number;
  tool: string;
  arguments: Record<string, unknown>;
  origin: Row<'call'>['origin'];
  reason?: string | null;
  operator_id?: string | null;
  api_key_id?: string | null;
  voice_turn_id?: string | null;
  campaign_id?: string | null;
  agent_id?: string | null;
  parent_call_id?: string | null;
  idempotency_key?: string | null;
  traceparent?: string | null;
  /** Sent by then or `undelivered`, counted from the database's clock. */
  deliveryDeadlineMs: number;
  reply_timeout_ms: number;
  approval_ttl_ms?: number | null;
  /** Not run before now + this (an announcement held back by quiet hours). */
  holdMs?: number;
  state?: Row<'call'>['state'];
  request_context?: unknown;
  /**
   * The producer's audit row of the request (the admin API's `audit_event`), written by the same statement and only
   * if the call is created: the request's record commits with its call, without a statement and a commit of its
   * own. A call whose key existed writes none; its producer records the request itself.
   */
  audit?: NewAuditEvent;
}

/** One `audit_event` row: who did what to which target, from where. */
export interface NewAuditEvent {
  operatorId: string | null;
  apiKeyId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
}

type CreatedRow = Omit<CallRecord, 'written' | 'arguments' | 'requestContext'> & {
  arguments: unknown;
  requestContext: unknown;
};

/** The rows' INSERT; its one parameter is the JSON document of the rows. */
const INSERT_CALLS = sql`
    INSERT INTO call (id, device_id, partition, tool, arguments, origin, reason, operator_id, api_key_id,
                      voice_turn_id, campaign_id, agent_id, parent_call_id, idempotency_key, traceparent,
                      deadline_at, reply_timeout_ms, approval_ttl_ms, state, request_context, hold_until)
    SELECT r.id, r.device_id, r.partition, r.tool, r.arguments, r.origin, r.reason, r.operator_id, r.api_key_id,
           r.voice_turn_id, r.campaign_id, r.agent_id, r.parent_call_id, r.idempotency_key, r.traceparent,
           now() + make_interval(secs => r."deliveryDeadlineMs" / 1000), r.reply_timeout_ms, r.approval_ttl_ms, r.state,
           r.request_context, now() + make_interval(secs => r."holdMs" / 1000)
      FROM jsonb_to_recordset(${'[]'}::jsonb) AS r(
             id uuid, device_id text, partition smallint, tool text, arguments jsonb, origin "CallOrigin",
             reason text, operator_id uuid, api_key_id uuid, voice_turn_id uuid, campaign_id uuid, agent_id text,
             parent_call_id uuid, idempotency_key text, traceparent text, "deliveryDeadlineMs" double precision,
             reply_timeout_ms int, approval_ttl_ms int, state "CallState", request_context jsonb,
             "holdMs" double precision)
    ON CONFLICT (idempotency_key) DO NOTHING`;

/** The audit rows of the calls `created` holds; its one parameter is their JSON document. */
const AUDIT_CREATED = sql`
    INSERT INTO audit_event (operator_id, api_key_id, action, target_type, target_id, details, ip, user_agent)
    SELECT a."operatorId", a."apiKeyId", a.action, a."targetType", a."targetId", a.details, a.ip, a."userAgent"
      FROM jsonb_to_recordset(${'[]'}::jsonb) AS a(
             "callId" uuid, "operatorId" uuid, "apiKeyId" uuid, action text, "targetType" text, "targetId" text,
             details jsonb, ip text, "userAgent" text)
      JOIN created c ON c.id = a."callId"`;

/**
 * Compiled once (a named statement on a pool); its parameters are the JSON documents of the rows and of the audit
 * rows that go with some of them.
 */
const CREATE_CALLS = sql<CreatedRow>`
  WITH created AS (
    ${INSERT_CALLS}
    RETURNING id, device_id AS "deviceId", partition, tool, arguments, origin, reason, operator_id AS "operatorId",
              api_key_id AS "apiKeyId", voice_turn_id AS "voiceTurnId", campaign_id AS "campaignId",
              agent_id AS "agentId", parent_call_id AS "parentCallId", state, verdict, jsonrpc_id AS "jsonrpcId",
              connection_id AS "connectionId", catalog_version_id AS "catalogVersionId", deadline_at AS "deadlineAt",
              reply_timeout_ms AS "replyTimeoutMs", approval_ttl_ms AS "approvalTtlMs", effect_deadline_at AS "effectDeadlineAt",
              request_context AS "requestContext", traceparent, cancelled_by AS "cancelledBy",
              cancel_reason AS "cancelReason", created_at AS "createdAt", sent_at AS "sentAt"
  ), audited AS (${AUDIT_CREATED})
  SELECT * FROM created`.compile(queryCompiler);

/** The same rows, answering only what a producer tells its caller. */
const CREATE_CALLS_BRIEF = sql<CreatedCall>`
  WITH created AS (${INSERT_CALLS} RETURNING id, state), audited AS (${AUDIT_CREATED})
  SELECT * FROM created`.compile(queryCompiler);

/** What a producer learns of a call it created. */
export interface CreatedCall {
  id: string;
  state: Row<'call'>['state'];
}

/** The statement's two parameters: the rows, and the audit rows that go with some of them. */
function createParameters(calls: readonly NewCall[]): [string, string] {
  const documents = calls.map(({ audit: _, ...c }) => ({
    ...c,
    state: c.state ?? 'queued',
    request_context: c.request_context ?? null,
  }));
  const audits = calls.flatMap((c) => (c.audit ? [{ ...c.audit, callId: c.id }] : []));
  return [JSON.stringify(documents), JSON.stringify(audits)];
}

/**
 * The one call creation (DESIGN §1: every call, prerequisites included): the rows, idempotent on their keys, in
 * one statement however many there are (producers batch the calls asked for together: a fleet-wide wave is a
 * few statements instead of one per call). Answers in input order the created call as the pipeline reads it (no
 * second load), or undefined where the key existed (and then no audit row was written). A row Postgres refuses
 * (an unknown device) fails the whole statement, its audit rows with it: callers that batch retry the rows one by
 * one.
 */
export async function createCalls(
  db: StatementTarget,
  calls: readonly NewCall[],
): Promise<(CallRecord | undefined)[]> {
  const rows = await executeNamed(db, 'create-calls', CREATE_CALLS, createParameters(calls));
  const created = new Map(rows.map((r) => [r.id, r]));
  return calls.map((c) => {
    const row = created.get(c.id);
    return row ? toCallRecord({ ...row, written: [] }) : undefined;
  });
}

/**
 * createCalls for a producer, which tells its caller only a call's id and state: the statement returns those two
 * columns instead of the 27 of the pipeline's record (their description and parsing were 2 % of the admin API's
 * time creating calls).
 */
export async function createCallsBrief(
  db: StatementTarget,
  calls: readonly NewCall[],
): Promise<(CreatedCall | undefined)[]> {
  const rows = await executeNamed(db, 'create-calls-brief', CREATE_CALLS_BRIEF, createParameters(calls));
  const created = new Map(rows.map((r) => [r.id, r]));
  return calls.map((c) => created.get(c.id));
}

/** One call (see createCalls). */
export async function createCall(db: Database, call: NewCall): Promise<CallRecord | undefined> {
  return (await createCalls(db, [call]))[0];
}

/** The call an idempotency key created. */
export async function callByIdempotencyKey(db: Database, key: string): Promise<CallRecord | undefined> {
  const row = await selectCallRecord(db.selectFrom('call'))
    .where('call.idempotency_key', '=', key)
    .executeTakeFirst();
  return row ? toCallRecord(row) : undefined;
}

/** The load's query, compiled once per Kysely instance: the runner loads each call it wakes for. */
const loadQueries = new WeakMap<Database, ReturnType<typeof compileLoad>>();

function compileLoad(db: Database) {
  // The placeholder is only the compiled statement's first parameter; each load passes the real id in its place.
  return selectCallRecord(db.selectFrom('call')).where('call.id', '=', '').compile();
}

/** A call as the pipeline reads it, with the stages already on disk. */
export async function loadCall(db: Database, id: string): Promise<CallRecord | undefined> {
  let query = loadQueries.get(db);
  if (!query) loadQueries.set(db, (query = compileLoad(db)));
  const bound: typeof query = { ...query, parameters: [id] };
  const { rows } = await db.executeQuery(bound);
  const row = rows[0];
  return row ? toCallRecord(row) : undefined;
}
