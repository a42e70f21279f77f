import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, databaseOn, jsonParam, sql, type Database, type Pool, type Row } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';
import type { ToolRow } from '../device-tools/device-tools.repository';
import type { Tx } from '../infra/transactions';

type ApprovalTable = Row<'approval'>;
type OperatorTable = Row<'operator'>;

export interface DecidedApproval {
  id: ApprovalTable['id'];
  callId: ApprovalTable['call_id'];
  campaignId: ApprovalTable['campaign_id'];
  deviceId: ApprovalTable['device_id'];
}

export interface ApprovalFacts {
  id: ApprovalTable['id'];
  state: ApprovalTable['state'];
  requestedBy: ApprovalTable['requested_by'];
  lapsed: boolean;
  callId: ApprovalTable['call_id'];
  campaignId: ApprovalTable['campaign_id'];
  /** The call was cancelled or sealed meanwhile: nothing is left to approve. */
  callSettled: boolean;
  /** DESIGN §4: the call's delivery deadline passed while it waited; approving it is refused. */
  callPastDeadline: boolean;
  /** A call's approval the orchestrator's pre-flight has not passed yet: nobody is asked before it has. */
  awaitingPreflight: boolean;
}

/** What toolThenAndNow reads: the tool in the catalog an approval was asked under, and in the current one. */
export interface ToolThenAndNow {
  tool: string;
  callId: string;
  deviceId: string;
  versionThen: number | null;
  versionNow: number | null;
  then: ToolRow | null;
  now: ToolRow | null;
}

type OperatorJson = Pick<OperatorTable, 'id' | 'email' | 'name'>;
type CallJson = { id: Row<'call'>['id']; deviceId: Row<'call'>['device_id'] } & Pick<
  Row<'call'>,
  'tool' | 'reason' | 'state' | 'verdict'
>;
type CampaignJson = Pick<Row<'campaign'>, 'id' | 'name' | 'state' | 'selector'>;

export interface ApprovalRow {
  id: ApprovalTable['id'];
  state: ApprovalTable['state'];
  effectiveState: ApprovalTable['state'];
  callId: ApprovalTable['call_id'];
  campaignId: ApprovalTable['campaign_id'];
  deviceId: ApprovalTable['device_id'];
  tool: ApprovalTable['tool'];
  arguments: ApprovalTable['arguments'];
  argumentsHash: ApprovalTable['arguments_hash'];
  requestedBy: OperatorJson;
  decidedBy: OperatorJson | null;
  decidedAt: ApprovalTable['decided_at'];
  reason: ApprovalTable['reason'];
  expiresAt: ApprovalTable['expires_at'];
  createdAt: ApprovalTable['created_at'];
  /** What the orchestrator's pre-flight found before a person was asked (DESIGN §4). */
  preflight: ApprovalTable['preflight'];
  catalogVersionId: ApprovalTable['catalog_version_id'];
  call: CallJson | null;
  campaign: CampaignJson | null;
}

/** What still waits: pending, in time, and its call or campaign still waiting for it. */
const WAITING = sql<boolean>`a.state = 'pending' AND a.expires_at > now()
  AND (a.call_id IS NULL OR (c.verdict IS NULL AND c.cancelled_by IS NULL AND c.deadline_at > now()
                              AND a.preflight IS NOT NULL))
  AND (a.campaign_id IS NULL OR k.state = 'awaiting_approval')`;

const LAPSED = sql<boolean>`(a.state = 'expired' OR (a.state = 'pending' AND a.expires_at <= now()))`;

/** An approval as the API shows it: who asked and who decided, and what it is for (json objects, or null). */
function approvalView(db: Database) {
  return db
    .selectFrom('approval as a')
    .innerJoin('operator as r', 'r.id', 'a.requested_by')
    .leftJoin('operator as d', 'd.id', 'a.decided_by')
    .leftJoin('call as c', 'c.id', 'a.call_id')
    .leftJoin('campaign as k', 'k.id', 'a.campaign_id')
    .select([
      'a.id',
      'a.state',
      sql<ApprovalTable['state']>`CASE WHEN a.state = 'pending' AND a.expires_at <= now() THEN 'expired'
        ELSE a.state::text END`.as('effectiveState'),
      'a.call_id as callId',
      'a.campaign_id as campaignId',
      'a.device_id as deviceId',
      'a.tool',
      'a.arguments',
      'a.arguments_hash as argumentsHash',
      sql<OperatorJson>`json_build_object('id', r.id, 'email', r.email, 'name', r.name)`.as('requestedBy'),
      sql<OperatorJson | null>`CASE WHEN d.id IS NULL THEN NULL
        ELSE json_build_object('id', d.id, 'email', d.email, 'name', d.name) END`.as('decidedBy'),
      'a.decided_at as decidedAt',
      'a.reason',
      'a.expires_at as expiresAt',
      'a.created_at as createdAt',
      'a.preflight',
      'a.catalog_version_id as catalogVersionId',
      sql<CallJson | null>`CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id,
        'deviceId', c.device_id, 'tool', c.tool, 'reason', c.reason, 'state', c.state, 'verdict', c.verdict) END`.as(
        'call',
      ),
      sql<CampaignJson | null>`CASE WHEN k.id IS NULL THEN NULL ELSE json_build_object('id', k.id, 'name', k.name,
        'state', k.state, 'selector', k.selector) END`.as('campaign'),
    ]);
}

/** Approval rows: the four-eyes decision is one guarded UPDATE, so two approvers cannot both win. */
@Injectable()
export class ApprovalsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  private on(tx: Tx | undefined): Database {
    return tx ? databaseOn(tx) : this.db;
  }

  /**
   * Decides a pending approval if it is in time, still wanted, and the decider is not the person who asked
   * (by operator: two keys of one person are one person).
   */
  async decide(
    tx: Tx | undefined,
    id: string,
    operatorId: string,
    state: 'approved' | 'rejected',
    reason: string | undefined,
  ): Promise<DecidedApproval | undefined> {
    return this.on(tx)
      .updateTable('approval as a')
      .set({ state, decided_by: operatorId, decided_at: sql<Date>`now()`, reason: reason ?? null })
      .where('a.id', '=', id)
      .where('a.state', '=', 'pending')
      .where('a.expires_at', '>', sql<Date>`now()`)
      .where('a.requested_by', '<>', operatorId)
      .where((eb) => eb.or([eb('a.call_id', 'is', null), eb('a.preflight', 'is not', null)]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('call as c')
              .select(sql`1`.as('one'))
              .whereRef('c.id', '=', 'a.call_id')
              .where(
                sql<boolean>`(c.verdict IS NOT NULL OR c.cancelled_by IS NOT NULL OR c.deadline_at <= now())`,
              ),
          ),
        ),
      )
      .returning(['a.id', 'a.call_id as callId', 'a.campaign_id as campaignId', 'a.device_id as deviceId'])
      .executeTakeFirst();
  }

  async facts(id: string, tx?: Tx): Promise<ApprovalFacts | undefined> {
    return this.on(tx)
      .selectFrom('approval as a')
      .leftJoin('call as c', 'c.id', 'a.call_id')
      .select([
        'a.id',
        'a.state',
        'a.requested_by as requestedBy',
        sql<boolean>`a.expires_at <= now()`.as('lapsed'),
        'a.call_id as callId',
        'a.campaign_id as campaignId',
        sql<boolean>`coalesce(c.verdict IS NOT NULL OR c.cancelled_by IS NOT NULL, false)`.as('callSettled'),
        sql<boolean>`coalesce(c.deadline_at <= now(), false)`.as('callPastDeadline'),
        sql<boolean>`(a.call_id IS NOT NULL AND a.preflight IS NULL)`.as('awaitingPreflight'),
      ])
      .where('a.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * A call's approval with the tool as pre-flight saw it (in the catalog version it recorded) and as the device
   * declares it now (its current catalog): null where that catalog has no such tool.
   */
  async toolThenAndNow(id: string): Promise<ToolThenAndNow | undefined> {
    const tool = <A extends string>(alias: A, version: string) =>
      sql<ToolRow | null>`(SELECT json_build_object('position', t.position, 'name', t.name,
          'description', t.description, 'inputSchema', t.input_schema, 'annotations', t.annotations,
          'userOnly', t.user_only, 'nameFlags', t.name_flags)
         FROM device_catalog_version cv JOIN tool t ON t.catalog_id = cv.catalog_id AND t.name = a.tool
        WHERE cv.id = ${sql.ref(version)})`.as(alias);
    return this.db
      .selectFrom('approval as a')
      .innerJoin('call as c', 'c.id', 'a.call_id')
      .innerJoin('device as d', 'd.id', 'c.device_id')
      .leftJoin('device_catalog_version as was', 'was.id', 'a.catalog_version_id')
      .leftJoin('device_catalog_version as now', 'now.id', 'd.catalog_version_id')
      .select([
        'a.tool',
        'c.id as callId',
        'c.device_id as deviceId',
        'was.version as versionThen',
        'now.version as versionNow',
        tool('then', 'a.catalog_version_id'),
        tool('now', 'd.catalog_version_id'),
      ])
      .where('a.id', '=', id)
      .where('a.catalog_version_id', 'is not', null)
      .executeTakeFirst();
  }

  async idForCampaign(campaignId: string, tx?: Tx): Promise<string | undefined> {
    const row = await this.on(tx)
      .selectFrom('approval')
      .select('id')
      .where('campaign_id', '=', campaignId)
      .executeTakeFirst();
    return row?.id;
  }

  /** A campaign's approval; starting again after it lapsed opens it anew (one row per campaign). */
  async openForCampaign(
    tx: Tx,
    a: {
      campaignId: string;
      tool: string;
      arguments: unknown;
      argumentsHash: string;
      requestedBy: string;
      ttlS: number;
    },
  ): Promise<string> {
    const row = await databaseOn(tx)
      .insertInto('approval')
      .values({
        id: sql<string>`gen_random_uuid()`,
        campaign_id: a.campaignId,
        tool: a.tool,
        arguments: jsonParam(a.arguments),
        arguments_hash: a.argumentsHash,
        requested_by: a.requestedBy,
        expires_at: sql<Date>`now() + make_interval(secs => ${a.ttlS})`,
      })
      .onConflict((oc) =>
        oc.column('campaign_id').doUpdateSet((eb) => ({
          state: 'pending',
          decided_by: null,
          decided_at: null,
          reason: null,
          created_at: sql<Date>`now()`,
          expires_at: eb.ref('excluded.expires_at'),
          arguments: eb.ref('excluded.arguments'),
          arguments_hash: eb.ref('excluded.arguments_hash'),
        })),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async get(id: string): Promise<ApprovalRow | undefined> {
    return approvalView(this.db).where('a.id', '=', id).executeTakeFirst();
  }

  async list(
    state: string,
    limit: number,
    before?: { createdAt: string; id: string },
  ): Promise<ApprovalRow[]> {
    let query = approvalView(this.db).where(
      state === 'pending'
        ? WAITING
        : state === 'expired'
          ? LAPSED
          : sql<boolean>`a.state = ${state}::"ApprovalState"`,
    );
    if (before)
      query = query.where(
        sql<boolean>`(a.created_at, a.id) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`,
      );
    return query
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit + 1)
      .execute();
  }
}
