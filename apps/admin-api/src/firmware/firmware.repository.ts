import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface FirmwareRecord {
  id: string;
  version: string;
  projectName: string;
  chip: string;
  sha256: string;
  size: number;
  boards: string[];
  uploadedBy: string;
  createdAt: Date;
}

const COLUMNS = [
  'id',
  'version',
  'project_name as projectName',
  'chip',
  'sha256',
  'size',
  'boards',
  'uploaded_by as uploadedBy',
  'created_at as createdAt',
] as const;

/** The registry: metadata in `firmware`, the bytes once per content in `firmware_image` (the broker serves them). */
@Injectable()
export class FirmwareRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  list(): Promise<FirmwareRecord[]> {
    return this.db.selectFrom('firmware').select(COLUMNS).orderBy('created_at', 'desc').execute();
  }

  async get(id: string): Promise<FirmwareRecord | null> {
    return (
      (await this.db.selectFrom('firmware').select(COLUMNS).where('id', '=', id).executeTakeFirst()) ?? null
    );
  }

  async bySha256(sha256: string): Promise<FirmwareRecord | null> {
    return (
      (await this.db
        .selectFrom('firmware')
        .select(COLUMNS)
        .where('sha256', '=', sha256)
        .executeTakeFirst()) ?? null
    );
  }

  /** Image and metadata together: a registry entry never points at bytes that are not there. */
  create(data: Buffer, meta: Omit<FirmwareRecord, 'id' | 'createdAt' | 'size'>): Promise<FirmwareRecord> {
    return this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('firmware_image')
        .values({ sha256: meta.sha256, size: data.length, data })
        .onConflict((c) => c.column('sha256').doNothing())
        .execute();
      return tx
        .insertInto('firmware')
        .values({
          id: randomUUID(),
          version: meta.version,
          project_name: meta.projectName,
          chip: meta.chip,
          sha256: meta.sha256,
          size: data.length,
          boards: meta.boards,
          uploaded_by: meta.uploadedBy,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    });
  }
}
