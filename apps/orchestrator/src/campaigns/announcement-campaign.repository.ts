import { quietGroupsOf, type GroupQuiet, type Pool } from '@fleet/db';

/** What the campaign runner reads for an announcement campaign's devices besides the campaign's own rows. */
export class AnnouncementCampaignRepository {
  constructor(private readonly pool: Pool) {}

  /** The device's groups that keep quiet hours, each with its time zone (as the API's gate reads them). */
  quietGroupsOf(deviceId: string): Promise<GroupQuiet[]> {
    return quietGroupsOf(this.pool, deviceId);
  }

  /**
   * How the effect row of the target's call says it was observed (`alert_published`, `playback_observed`), if
   * the call has one.
   */
  async effectMethod(targetId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ method: string | null }>(
      `SELECT e.payload->>'method' AS method
         FROM campaign_target t JOIN evidence e ON e.call_id = t.call_id AND e.stage = 'effect'
        WHERE t.id = $1
        LIMIT 1`,
      [targetId],
    );
    return rows[0]?.method ?? undefined;
  }
}
