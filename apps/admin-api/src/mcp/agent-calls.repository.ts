import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import { canonicalJson } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';

/** What /mcp reads and writes about agents' calls beyond the calls service: waits, states, output schemas. */
@Injectable()
export class AgentCallsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /**
   * An unfinished call of this agent for exactly this request that waits for (or ran on) a person's approval: a
   * client that retries after its user opened the approval page joins it instead of asking a second time.
   */
  async waitingCall(
    agentId: string,
    request: { deviceId: string; tool: string; arguments: Record<string, unknown> },
  ): Promise<{ callId: string; approvalId: string } | undefined> {
    const rows = await this.db
      .selectFrom('call as c')
      .innerJoin('approval as a', 'a.call_id', 'c.id')
      .select(['c.id as callId', 'a.id as approvalId', 'c.arguments'])
      .where('c.agent_id', '=', agentId)
      .where('c.origin', '=', 'agent')
      .where('c.device_id', '=', request.deviceId)
      .where('c.tool', '=', request.tool)
      .where('c.verdict', 'is', null)
      .orderBy('c.created_at', 'desc')
      .limit(20)
      .execute();
    const wanted = canonicalJson(request.arguments);
    const same = rows.find((r) => canonicalJson(r.arguments) === wanted);
    return same ? { callId: same.callId, approvalId: same.approvalId } : undefined;
  }

  /** Records a requestState as used; false when it was used before (MCP 2026-07-28: consumed at most once). */
  async consumeState(state: {
    nonce: string;
    callId: string;
    agentId: string;
    expiresAt: Date;
  }): Promise<boolean> {
    const row = await this.db
      .insertInto('mcp_request_state')
      .values({
        nonce: state.nonce,
        call_id: state.callId,
        agent_id: state.agentId,
        expires_at: state.expiresAt,
      })
      .onConflict((oc) => oc.column('nonce').doNothing())
      .returning('nonce')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets consumed states past their expiry (they are refused for their expiry before this table is read). */
  async pruneStates(now: Date): Promise<void> {
    await this.db.deleteFrom('mcp_request_state').where('expires_at', '<', now).execute();
  }

  /** The outputSchema the device declared for the tool in the catalog version the call ran under. */
  async outputSchema(catalogVersionId: string | null, tool: string): Promise<Record<string, unknown> | null> {
    if (catalogVersionId === null) return null;
    const row = await this.db
      .selectFrom('device_catalog_version as v')
      .innerJoin('tool as t', 't.catalog_id', 'v.catalog_id')
      .select('t.output_schema')
      .where('v.id', '=', catalogVersionId)
      .where('t.name', '=', tool)
      .where(sql<boolean>`jsonb_typeof(t.output_schema) = 'object'`)
      .executeTakeFirst();
    return (row?.output_schema as Record<string, unknown> | undefined) ?? null;
  }
}
