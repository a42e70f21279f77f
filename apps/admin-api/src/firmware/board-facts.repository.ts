import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import type { BoardFacts } from '@fleet/protocol';
import { PG_POOL } from '../infra/tokens';

/** What devices of a board told the platform about their hardware, for checking an image against the board. */
@Injectable()
export class BoardFactsRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /** Per board: the chips its devices report (`chip_model_name`) and the smallest `flash_size` any boot reported. */
  async ofBoards(boards: string[]): Promise<BoardFacts[]> {
    const [chips, flash] = await Promise.all([
      this.db
        .selectFrom('device')
        .select(['board', 'chip_model'])
        .distinct()
        .where('board', 'in', boards)
        .where('chip_model', 'is not', null)
        .execute(),
      this.db
        .selectFrom('boot_report as b')
        .innerJoin('device as d', 'd.id', 'b.device_id')
        .select(['d.board', sql<string>`min((b.body->>'flash_size')::numeric)`.as('smallest')])
        .where('d.board', 'in', boards)
        .where(sql<boolean>`jsonb_typeof(b.body->'flash_size') = 'number'`)
        .groupBy('d.board')
        .execute(),
    ]);
    return boards.map((board) => {
      const smallest = flash.find((f) => f.board === board)?.smallest;
      return {
        board,
        chips: chips.filter((c) => c.board === board).map((c) => c.chip_model!),
        smallestFlashBytes: smallest === undefined ? undefined : Number(smallest),
      };
    });
  }
}
