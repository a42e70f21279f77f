import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import {
  callByIdempotencyKey,
  createCallsBrief,
  createDatabase,
  createCall,
  gateFactsOf,
  openCallApproval,
  showPlatformApproval,
  TurnBatcher,
  type CreatedCall,
  type Database,
  type GateFacts,
  type NewAuditEvent,
  type NewCall,
} from '@fleet/db';
import { z } from 'zod';
import { CALL_ORIGINS, canonicalJson, partitionOf, type CallState } from '@fleet/domain';
import { DependencyUnavailableError, publishCallWakes, type PartitionWake, type Redis } from '@fleet/queues';
import { contextFromTraceparent, currentTraceparent, inSpan } from '@fleet/telemetry';
import { argumentsHash } from './approvals';
import { isUserOnlyTool } from './user-only-gate';

/** What a producer may leave out of a request: the schema fills these in, and so does a producer that builds one. */
export const CALL_REQUEST_DEFAULTS = {
  deliveryDeadlineMs: 10 * 60_000,
  replyTimeoutMs: 10_000,
  approvalTtlMs: 3600_000,
} as const;

/** What any producer (API, voice worker, campaign runner, MCP endpoint) asks of the orchestrator. */
export const callRequestSchema = z.strictObject({
  deviceId: z.string().min(1),
  tool: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()).default({}),
  origin: z.enum(CALL_ORIGINS),
  reason: z.string().max(2000).optional(),
  operatorId: z.uuid().optional(),
  apiKeyId: z.uuid().optional(),
  voiceTurnId: z.uuid().optional(),
  campaignId: z.uuid().optional(),
  agentId: z.string().max(200).optional(),
  parentCallId: z.uuid().optional(),
  /**
   * A retry with the same key returns the first call instead of creating another (DESIGN §3). Room for a client's
   * longest Idempotency-Key (255) scoped to its person: `operator:<uuid>:mcp:<key>` is 305.
   */
  idempotencyKey: z.string().min(1).max(320).optional(),
  /** Sent by then or `undelivered` (the device may be offline or rebooting meanwhile). */
  deliveryDeadlineMs: z
    .int()
    .min(1_000)
    .max(7 * 24 * 3600_000)
    .default(CALL_REQUEST_DEFAULTS.deliveryDeadlineMs),
  replyTimeoutMs: z.int().min(100).max(600_000).default(CALL_REQUEST_DEFAULTS.replyTimeoutMs),
  /** Not run before this many ms from now (an announcement held back by quiet hours); the deadline counts too. */
  holdMs: z
    .int()
    .min(1)
    .max(7 * 24 * 3600_000)
    .optional(),
  /** For the decision row: the LLM's exact tool_call and the utterance's sha256 (never the text itself). */
  context: z
    .strictObject({
      llmToolCall: z.unknown().optional(),
      utteranceHash: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
      agent: z.record(z.string(), z.unknown()).optional(),
      /** An announcement's gate as the API checked it (rule, result, detail), for its decision row. */
      gate: z.array(z.record(z.string(), z.unknown())).max(20).optional(),
    })
    .optional(),
  /** How long an operator's user-only call waits for another person's approval before it is `expired`. */
  approvalTtlMs: z
    .int()
    .min(1_000)
    .max(30 * 24 * 3600_000)
    .default(CALL_REQUEST_DEFAULTS.approvalTtlMs),
  /** The trace the call belongs to; unset: the caller's active trace (the API request, the voice turn). */
  traceparent: z.string().optional(),
});
export type CallRequest = z.input<typeof callRequestSchema>;
/** A request as the schema answers it: every field checked, defaults filled in. */
export type ValidCallRequest = z.output<typeof callRequestSchema>;
type ParsedRequest = ValidCallRequest;

export type CallRequestResult =
  | {
      ok: true;
      callId: string;
      created: boolean;
      state: CallState;
      approvalId?: string;
      /**
       * The row is committed but its wake-up could not be queued (Redis unreachable): the orchestrator's sweep
       * runs a queued call whose wake-up was lost, so the call goes on once it can. Says why.
       */
      wakeDeferred?: string;
      /** The producer's audit row (RequestOptions.audit) was committed with the call. */
      audited?: true;
    }
  | { ok: false; error: 'unknown_device' | 'idempotency_conflict'; message: string }
  | { ok: false; error: 'device_unavailable'; deviceStatus: GateFacts['deviceStatus']; message: string };

/** What a producer asks of a request besides the call itself. */
export interface RequestOptions {
  /**
   * Refuses the call (`device_unavailable`) to a device in one of these statuses, and one to a device nobody knows
   * (`unknown_device`) before anything is written. The status comes with the gate's read of the same turn: no
   * statement of its own.
   */
  refuseDeviceStatuses?: readonly GateFacts['deviceStatus'][];
  /**
   * A person's call that needs another person's approval whatever its tool (an announcement over an admin's
   * threshold), shown to approvers at once with what the producer's own gate found.
   */
  secondPerson?: { preflight: unknown };
  /**
   * The producer's audit row of the request, written by the call's own INSERT if it creates the call (`audited`
   * in the answer): the record commits with the call, one statement and one commit instead of two. Not written
   * when the call is not created (refused, or its idempotency key existed): the producer records those itself.
   */
  audit?: NewAuditEvent;
}

/**
 * Creates a call row and wakes its partition's owner. Idempotency lives in Postgres (a unique key), not in
 * BullMQ job ids, which vanish after completion: a producer that retries after a timeout gets the same call.
 * What many callers ask for at about the same time shares its statements and round trips (DESIGN §6's group
 * commit, for call creation): the gate's reads of one turn go out as one statement, the rows as one INSERT, the
 * wake-ups (entries on their partitions' streams, @fleet/queues call-wakes) as one pipeline; each caller still
 * learns only once its own row is committed.
 */
export class CallRequests {
  /** The wake-ups of one turn, whatever their partitions, go out as one pipeline. */
  private readonly wakes: TurnBatcher<PartitionWake, undefined>;
  private readonly db: Database;
  private readonly gateReads: TurnBatcher<{ deviceId: string; tool: string }, GateFacts | undefined>;
  private readonly inserts: TurnBatcher<NewCall, CreatedCall | undefined>;

  constructor(
    pool: Pool,
    private readonly redis: Redis,
    private readonly queuePrefix: string,
    private readonly options: { wakeTimeoutMs?: number } = {},
  ) {
    this.db = createDatabase(pool);
    // An ask or a row Postgres refuses (a text it cannot store, an unknown device) fails its batch's statement;
    // the batcher then runs each alone, so it fails only its own caller, not another operator's calls.
    this.gateReads = new TurnBatcher((asks) => gateFactsOf(pool, asks));
    this.inserts = new TurnBatcher((calls) => createCallsBrief(pool, calls));
    // A pipeline of our own stream entries fails only when Redis does: each wake-up alone would wait out the
    // deadline again.
    this.wakes = new TurnBatcher(
      async (batch) => {
        await publishCallWakes(this.redis, this.queuePrefix, batch, this.options.wakeTimeoutMs);
        return batch.map(() => undefined);
      },
      { retrySingly: false },
    );
  }

  /**
   * Runs in a producer span of the caller's trace (or of `traceparent`); the row and the job carry that span's
   * traceparent, so the orchestrator's work continues the same trace (DESIGN §2).
   */
  request(input: CallRequest, options: RequestOptions = {}): Promise<CallRequestResult> {
    return this.requestValid(callRequestSchema.parse(input), options);
  }

  /**
   * A request its producer built only from input it had already validated against the same bounds (the admin
   * API's route schemas, its own credentials), with the defaults of CALL_REQUEST_DEFAULTS: parsing it again with
   * callRequestSchema was a second zod pass over every call creation.
   */
  async requestValid(parsed: ValidCallRequest, options: RequestOptions = {}): Promise<CallRequestResult> {
    return inSpan(
      'call.request',
      {
        ...(parsed.traceparent ? { parent: contextFromTraceparent(parsed.traceparent) } : {}),
        attributes: { 'device.id': parsed.deviceId, 'call.tool': parsed.tool, 'call.origin': parsed.origin },
      },
      async (span) => {
        const traceparent = currentTraceparent() ?? parsed.traceparent;
        const result = await this.requestInTrace(
          { ...parsed, ...(traceparent ? { traceparent } : {}) },
          options,
        );
        if (result.ok) span.setAttribute('call.id', result.callId);
        else span.setAttribute('call.refused', result.error);
        return result;
      },
    );
  }

  private async requestInTrace(r: ParsedRequest, options: RequestOptions): Promise<CallRequestResult> {
    const partition = partitionOf(r.deviceId);
    let result: CallRequestResult;
    try {
      result = await this.insert(r, partition, options);
    } catch (err) {
      if ((err as { code?: string }).code === '23503') {
        return { ok: false, error: 'unknown_device', message: `no device ${r.deviceId}` };
      }
      throw err;
    }
    if (result.ok && result.created) {
      try {
        await this.wakeIn(partition, result.callId, r.deviceId, r.traceparent);
      } catch (err) {
        // Committed is committed: the caller learns the call exists (and retries with its idempotency key get
        // the same one); the sweep finds queued calls older than a few seconds and runs them.
        if (!(err instanceof DependencyUnavailableError)) throw err;
        return { ...result, wakeDeferred: err.message };
      }
    }
    return result;
  }

  /** Wakes the owner of the call's partition (after an approval, a cancel, or to retry a lost wake-up). */
  wake(callId: string, deviceId: string, traceparent?: string): Promise<void> {
    return this.wakeIn(partitionOf(deviceId), callId, deviceId, traceparent);
  }

  private async wakeIn(
    partition: number,
    callId: string,
    deviceId: string,
    traceparent?: string,
  ): Promise<void> {
    await this.wakes.submit({
      partition,
      wake: { kind: 'call', callId, deviceId, ...(traceparent ? { traceparent } : {}) },
    });
  }

  /**
   * A wake-up that only saves the orchestrator waiting for its next sweep (an approval, a cancel): with Redis
   * unreachable it is skipped, since the sweep finds the decided or cancelled call in Postgres anyway.
   * Resolves whether it was queued.
   */
  async wakeIfReachable(callId: string, deviceId: string): Promise<boolean> {
    try {
      await this.wake(callId, deviceId);
      return true;
    } catch (err) {
      if (err instanceof DependencyUnavailableError) return false;
      throw err;
    }
  }

  /** Asks the owner of the device's partition to run discovery again (DESIGN §3: re-discover on demand). */
  async rediscover(deviceId: string): Promise<void> {
    await this.wakes.submit({ partition: partitionOf(deviceId), wake: { kind: 'discover', deviceId } });
  }

  /** Nothing to release: the wake-ups ride on the caller's Redis connection. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * The call row, one row of a batched INSERT (autocommitted). A person's (or their agent's) user-only call starts
   * `awaiting_approval`: the orchestrator runs pre-flight and opens its approval only if the call could run
   * (DESIGN §4); the producer that wants to tell its caller which waits (PreflightWait in the admin API).
   */
  private async insert(
    r: ParsedRequest,
    partition: number,
    options: RequestOptions,
  ): Promise<CallRequestResult> {
    // An agent acts for the person who owns its credential: that person is the requester an approver is not.
    const operatorCall = (r.origin === 'operator' || r.origin === 'agent') && r.operatorId !== undefined;
    const refused = options.refuseDeviceStatuses;
    const facts =
      operatorCall || refused
        ? await this.gateReads.submit({ deviceId: r.deviceId, tool: r.tool })
        : undefined;
    if (refused) {
      if (!facts) return { ok: false, error: 'unknown_device', message: `no device ${r.deviceId}` };
      if (refused.includes(facts.deviceStatus)) {
        return {
          ok: false,
          error: 'device_unavailable',
          deviceStatus: facts.deviceStatus,
          message: `device ${r.deviceId} is ${facts.deviceStatus}`,
        };
      }
    }
    if (operatorCall && options.secondPerson)
      return this.insertForSecondPerson(r, partition, options.secondPerson);
    const gated = operatorCall && isUserOnlyTool(r.tool, facts) === true;
    // DESIGN §4: no approval exists before pre-flight has passed the call; the orchestrator opens it then, with
    // the TTL asked for here. A call pre-flight refuses is sealed, and nobody was ever asked.
    const call = newCall(r, partition, gated ? 'awaiting_approval' : 'queued');
    if (gated) call.approval_ttl_ms = r.approvalTtlMs;
    if (options.audit) call.audit = options.audit;
    const created = await this.inserts.submit(call);
    return created
      ? {
          ok: true,
          callId: created.id,
          created: true,
          state: created.state,
          ...(options.audit ? { audited: true as const } : {}),
        }
      : this.existing(this.db, r);
  }

  /**
   * A call the producer's own gate already checked and an admin's rule gives to a second person (an announcement
   * to many devices, or outside set hours): its checks are what the approver is shown, so the approval opens with
   * the call, in one transaction.
   */
  private insertForSecondPerson(
    r: ParsedRequest,
    partition: number,
    secondPerson: NonNullable<RequestOptions['secondPerson']>,
  ): Promise<CallRequestResult> {
    const call = newCall(r, partition, 'awaiting_approval');
    return this.db.transaction().execute(async (trx) => {
      const created = await createCall(trx, call);
      if (!created) return this.existing(trx, r);
      const { id: approvalId } = await openCallApproval(trx, {
        id: created.id,
        deviceId: r.deviceId,
        tool: r.tool,
        arguments: r.arguments,
        argumentsHash: argumentsHash(r.deviceId, r.tool, r.arguments),
        operatorId: r.operatorId!,
        ttlMs: r.approvalTtlMs,
      });
      await showPlatformApproval(trx, created.id, secondPerson.preflight);
      return { ok: true, callId: created.id, created: true, state: created.state, approvalId };
    });
  }

  private async existing(db: Database, r: ParsedRequest): Promise<CallRequestResult> {
    const call = (await callByIdempotencyKey(db, r.idempotencyKey!))!;
    const same =
      call.deviceId === r.deviceId &&
      call.tool === r.tool &&
      canonicalJson(call.arguments) === canonicalJson(r.arguments);
    if (!same) {
      return {
        ok: false,
        error: 'idempotency_conflict',
        message: 'this Idempotency-Key was used for a different request',
      };
    }
    return { ok: true, callId: call.id, created: false, state: call.state };
  }
}

function newCall(r: ParsedRequest, partition: number, state: 'queued' | 'awaiting_approval'): NewCall {
  return {
    id: randomUUID(),
    device_id: r.deviceId,
    partition,
    tool: r.tool,
    arguments: r.arguments,
    origin: r.origin,
    reason: r.reason ?? null,
    operator_id: r.operatorId ?? null,
    api_key_id: r.apiKeyId ?? null,
    voice_turn_id: r.voiceTurnId ?? null,
    campaign_id: r.campaignId ?? null,
    agent_id: r.agentId ?? null,
    parent_call_id: r.parentCallId ?? null,
    idempotency_key: r.idempotencyKey ?? null,
    traceparent: r.traceparent ?? null,
    deliveryDeadlineMs: r.deliveryDeadlineMs,
    reply_timeout_ms: r.replyTimeoutMs,
    ...(r.holdMs ? { holdMs: r.holdMs } : {}),
    state,
    ...(r.context ? { request_context: r.context } : {}),
  };
}
