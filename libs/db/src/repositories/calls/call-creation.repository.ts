import { sql, type Database, type NewRow } from '../../client/kysely';
import { selectCallRecord } from './call-columns.repository';
import { toCallRecord, type CallRecord } from './call-record';

/** What a producer sets on a new call; the id, partition and deadline are the caller's to compute. */
export type NewCall = Omit<NewRow<'call'>, 'deadline_at' | 'arguments' | 'request_context'> & {
  arguments: Record<string, unknown>;
  request_context?: unknown;
  /** Sent by then or `undelivered`, counted from the database's clock. */
  deliveryDeadlineMs: number;
};

/**
 * The one call creation (DESIGN §1: every call, prerequisites included): the row, idempotent on its key.
 * Returns the created call as the pipeline reads it (no second load), or undefined when the key existed.
 */
export async function createCall(db: Database, call: NewCall): Promise<CallRecord | undefined> {
  const { deliveryDeadlineMs, arguments: args, request_context, ...columns } = call;
  const row = await db
    .insertInto('call')
    .values({
      ...columns,
      arguments: JSON.stringify(args),
      request_context: request_context === undefined ? null : JSON.stringify(request_context),
      deadline_at: sql<Date>`now() + make_interval(secs => ${deliveryDeadlineMs}::double precision / 1000)`,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning((eb) => [
      'id',
      'device_id as deviceId',
      'partition',
      'tool',
      'arguments',
      'origin',
      'reason',
      'operator_id as operatorId',
      'api_key_id as apiKeyId',
      'voice_turn_id as voiceTurnId',
      'campaign_id as campaignId',
      'agent_id as agentId',
      'parent_call_id as parentCallId',
      'state',
      'verdict',
      'jsonrpc_id as jsonrpcId',
      'connection_id as connectionId',
      'catalog_version_id as catalogVersionId',
      'deadline_at as deadlineAt',
      'reply_timeout_ms as replyTimeoutMs',
      'effect_deadline_at as effectDeadlineAt',
      'request_context as requestContext',
      'traceparent',
      'cancelled_by as cancelledBy',
      'cancel_reason as cancelReason',
      'created_at as createdAt',
      'sent_at as sentAt',
      eb.val<string[]>([]).as('written'),
    ])
    .executeTakeFirst();
  return row ? toCallRecord({ ...row, written: [] }) : undefined;
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
