import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

/** Which agent asked for which campaign through /mcp (its task: read and cancelled by that agent alone). */
@Injectable()
export class AgentCampaignsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /** Idempotent: a retry that joined the same campaign records nothing new. */
  async record(campaignId: string, agentId: string): Promise<void> {
    await this.db
      .insertInto('agent_campaign')
      .values({ campaign_id: campaignId, agent_id: agentId })
      .onConflict((oc) => oc.column('campaign_id').doNothing())
      .execute();
  }

  async agentOf(campaignId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('agent_campaign')
      .select('agent_id')
      .where('campaign_id', '=', campaignId)
      .executeTakeFirst();
    return row?.agent_id;
  }
}
