import type { Database, Row } from '@fleet/db';

/** Firmware image bytes from the registry's table, by content address. */
export class FirmwareImageRepository {
  constructor(private readonly db: Database) {}

  async findData(sha256: string): Promise<Row<'firmware_image'>['data'] | undefined> {
    const row = await this.db
      .selectFrom('firmware_image')
      .select('data')
      .where('sha256', '=', sha256)
      .executeTakeFirst();
    return row?.data;
  }
}
