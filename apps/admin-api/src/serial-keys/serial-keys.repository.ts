import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, sql, type Database, type Pool } from '@fleet/db';
import { PG_POOL } from '../infra/tokens';

export interface SealedRow {
  serialNumber: string;
  sealedKey: Buffer;
  wrappingKeyId: string;
}

export interface SerialKeyView {
  serialNumber: string;
  importedAt: string;
  importedBy: string;
  /** The device this serial is bound to, once one has checked in with it. */
  deviceId: string | null;
}

/** The imported eFuse keys, sealed (the broker reads them to check an activation proof). */
@Injectable()
export class SerialKeysRepository {
  private readonly db: Database;

  constructor(@Inject(PG_POOL) pool: Pool) {
    this.db = createDatabase(pool);
  }

  /**
   * All rows or none. Without `replace`, serials that already have a key are left alone and returned, and the
   * caller refuses the import; with it, their keys are replaced.
   */
  async store(rows: SealedRow[], importedBy: string, replace: boolean): Promise<{ existing: string[] }> {
    return this.db.transaction().execute(async (tx) => {
      const existing = await tx
        .selectFrom('device_serial_key')
        .select('serial_number')
        .where(
          'serial_number',
          'in',
          rows.map((r) => r.serialNumber),
        )
        .execute();
      if (existing.length > 0 && !replace) return { existing: existing.map((e) => e.serial_number) };
      for (let i = 0; i < rows.length; i += 1000) {
        await tx
          .insertInto('device_serial_key')
          .values(
            rows.slice(i, i + 1000).map((r) => ({
              serial_number: r.serialNumber,
              sealed_key: r.sealedKey,
              wrapping_key_id: r.wrappingKeyId,
              imported_by: importedBy,
            })),
          )
          .onConflict((c) =>
            c.column('serial_number').doUpdateSet({
              sealed_key: (eb) => eb.ref('excluded.sealed_key'),
              wrapping_key_id: (eb) => eb.ref('excluded.wrapping_key_id'),
              imported_by: (eb) => eb.ref('excluded.imported_by'),
              imported_at: sql<Date>`now()`,
            }),
          )
          .execute();
      }
      return { existing: existing.map((e) => e.serial_number) };
    });
  }

  async list(limit: number, afterSerial: string | undefined): Promise<SerialKeyView[]> {
    let query = this.db
      .selectFrom('device_serial_key as k')
      .leftJoin('device as d', 'd.serial_number', 'k.serial_number')
      .select(['k.serial_number', 'k.imported_at', 'k.imported_by', 'd.id as device_id'])
      .orderBy('k.serial_number')
      .limit(limit + 1);
    if (afterSerial !== undefined) query = query.where('k.serial_number', '>', afterSerial);
    const rows = await query.execute();
    return rows.map((r) => ({
      serialNumber: r.serial_number,
      importedAt: r.imported_at.toISOString(),
      importedBy: r.imported_by,
      deviceId: r.device_id,
    }));
  }
}
