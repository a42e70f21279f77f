import { Inject, Injectable } from '@nestjs/common';
import { activeVersions, replacedVersion, versionSignals, type Pool, type ReleaseWindow } from '@fleet/db';
import type { VersionSignals } from '@fleet/domain';
import { PG_POOL } from '../infra/tokens';

/** The signals release health is judged from (their SQL lives in @fleet/db: the orchestrator's gates read them too). */
@Injectable()
export class ReleaseHealthRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async versionOf(firmwareId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ version: string }>(
      'SELECT version FROM firmware WHERE id = $1',
      [firmwareId],
    );
    return rows[0]?.version;
  }

  replaced(version: string, window: ReleaseWindow): Promise<{ baseline: string | null; boards: string[] }> {
    return replacedVersion(this.pool, version, window);
  }

  signals(version: string, boards: string[], window: ReleaseWindow): Promise<VersionSignals> {
    return versionSignals(this.pool, version, boards, window);
  }

  active(window: ReleaseWindow, limit: number): Promise<string[]> {
    return activeVersions(this.pool, window, limit);
  }
}
