import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, ToolProfileProposalsRepository, ToolProfilesRepository, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

/** The shared repositories of tool profiles and their proposals (libs/db), for this API's pool. */
@Injectable()
export class ToolProfileStore {
  readonly profiles: ToolProfilesRepository;
  readonly proposals: ToolProfileProposalsRepository;

  constructor(@Inject(PG_POOL) pool: Pool) {
    const db = createDatabase(pool);
    this.profiles = new ToolProfilesRepository(db);
    this.proposals = new ToolProfileProposalsRepository(db);
  }
}
