import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, databaseOn, jsonParam, sql, type Database, type Pool } from '@fleet/db';
import {
  campaignActionSchema,
  campaignSelectorSchema,
  type CampaignSpec,
  type CampaignState,
} from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';
import type { Tx } from '../infra/transactions';

export interface CampaignRow {
  id: string;
  name: string;
  createdBy: string;
  state: CampaignState;
  selector: CampaignSpec['selector'];
  action: CampaignSpec['action'];
  rollout: unknown;
  abortRule: unknown;
  windows: unknown;
  deviceTimeoutS: number;
  retries: number;
  skipInSession: boolean;
  doneWhen: 'verified' | 'verified_or_acknowledged';
  stateReason: string | null;
  /** The campaign whose devices, rejected because their tool changed, this one asks approval for again. */
  reapprovalOf: string | null;
  /** A phased rollout's phases (null: one rollout), the phase it is in, and how each gate ended. */
  phases: unknown;
  phaseIndex: number;
  phaseLog: unknown;
  /** The definition sealed when it started (null until then). */
  definition: unknown;
  /** The campaign this one undoes. */
  rollbackOf: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
}

const COLUMNS = [
  'id',
  'name',
  'created_by as createdBy',
  'state',
  'selector',
  'action',
  'rollout',
  'abort_rule as abortRule',
  'windows',
  'device_timeout_s as deviceTimeoutS',
  'retries',
  'skip_in_session as skipInSession',
  'done_when as doneWhen',
  'state_reason as stateReason',
  'reapproval_of as reapprovalOf',
  'phases',
  'phase_index as phaseIndex',
  'phase_log as phaseLog',
  'definition',
  'rollback_of as rollbackOf',
  'created_at as createdAt',
  'started_at as startedAt',
  'finished_at as finishedAt',
  'updated_at as updatedAt',
] as const;

/** The selector and action as the API validated them when the campaign was created, parsed again on the way out. */
function campaignOf<R extends { selector: unknown; action: unknown }>(
  row: R,
): Omit<R, 'selector' | 'action'> & {
  selector: CampaignSpec['selector'];
  action: CampaignSpec['action'];
} {
  return {
    ...row,
    selector: campaignSelectorSchema.parse(row.selector),
    action: campaignActionSchema.parse(row.action),
  };
}

/** Campaign rows. Every state change is one UPDATE guarded by the states it may leave. */
@Injectable()
export class CampaignsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /** A retry with the same idempotency key finds the first campaign instead of creating another. */
  async create(
    spec: CampaignSpec,
    createdBy: string,
    idempotencyKey?: string,
    opts: { reapprovalOf?: string; rollbackOf?: string; tx?: Tx } = {},
  ): Promise<CampaignRow> {
    const row = await (opts.tx ? databaseOn(opts.tx) : this.db)
      .insertInto('campaign')
      .values({
        id: randomUUID(),
        name: spec.name,
        created_by: createdBy,
        selector: jsonParam(spec.selector),
        action: jsonParam(spec.action),
        rollout: jsonParam(spec.rollout),
        abort_rule: jsonParam(spec.abortRule),
        windows: spec.windows ? jsonParam(spec.windows) : null,
        device_timeout_s: spec.deviceTimeoutS,
        retries: spec.retries,
        skip_in_session: spec.skipInSession,
        done_when: spec.doneWhen,
        idempotency_key: idempotencyKey ?? null,
        reapproval_of: opts.reapprovalOf ?? null,
        phases: spec.phases ? jsonParam(spec.phases) : null,
        rollback_of: opts.rollbackOf ?? null,
        updated_at: new Date(),
      })
      .onConflict((c) =>
        c
          .column('idempotency_key')
          .doUpdateSet((eb) => ({ idempotency_key: eb.ref('excluded.idempotency_key') })),
      )
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return campaignOf(row);
  }

  /** Read alone, or inside a transaction and locked until it ends (`lock`). */
  async get(id: string, tx?: Tx, lock = false): Promise<CampaignRow | undefined> {
    let query = (tx ? databaseOn(tx) : this.db).selectFrom('campaign').select(COLUMNS).where('id', '=', id);
    if (lock) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row && campaignOf(row);
  }

  async list(
    state: CampaignState | undefined,
    limit: number,
    before?: { createdAt: string; id: string },
  ): Promise<CampaignRow[]> {
    let query = this.db.selectFrom('campaign').select(COLUMNS);
    if (state) query = query.where('state', '=', state);
    if (before) {
      query = query.where((eb) =>
        eb(
          eb.refTuple('created_at', 'id'),
          '<',
          eb.tuple(sql<Date>`${before.createdAt}::timestamptz`, sql<string>`${before.id}::uuid`),
        ),
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    return rows.map(campaignOf);
  }

  async move(
    tx: Tx,
    id: string,
    from: CampaignState[],
    to: CampaignState,
    opts: { reason?: string | null; started?: boolean; finished?: boolean } = {},
  ): Promise<CampaignRow | undefined> {
    if (from.length === 0) return undefined;
    const row = await databaseOn(tx)
      .updateTable('campaign')
      .set((eb) => ({
        state: to,
        state_reason: opts.reason ?? null,
        updated_at: new Date(),
        ...(opts.started ? { started_at: eb.fn.coalesce('started_at', sql<Date>`now()`) } : {}),
        ...(opts.finished ? { finished_at: sql<Date>`now()` } : {}),
      }))
      .where('id', '=', id)
      .where('state', 'in', from)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row && campaignOf(row);
  }

  firmware(id: string): Promise<{ id: string; version: string; boards: string[] } | undefined> {
    return this.db
      .selectFrom('firmware')
      .select(['id', 'version', 'boards'])
      .where('id', '=', id)
      .executeTakeFirst();
  }
}
