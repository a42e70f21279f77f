import { sql, type Database } from '@fleet/db';

export const VOICE_WORKER_KIND = 'voice-worker';

/** Voice workers' heartbeats in `service_instance` (as the orchestrator's replicas keep theirs). */
export class WorkerLivenessRepository {
  constructor(
    private readonly db: Database,
    private readonly workerId: string,
  ) {}

  async beat(): Promise<void> {
    await this.db
      .insertInto('service_instance')
      .values({ id: this.workerId, kind: VOICE_WORKER_KIND, heartbeat_at: sql<Date>`now()` })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql<Date>`now()` }))
      .execute();
  }

  async leave(): Promise<void> {
    await this.db
      .deleteFrom('service_instance')
      .where('id', '=', this.workerId)
      .where('kind', '=', VOICE_WORKER_KIND)
      .execute();
  }
}
