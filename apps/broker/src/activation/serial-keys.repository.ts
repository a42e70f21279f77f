import type { Database } from '@fleet/db';

export interface SealedSerialKey {
  sealedKey: Buffer;
  wrappingKeyId: string;
}

/** The eFuse keys an admin imported (the admin API writes them; the broker only reads). */
export class SerialKeysRepository {
  constructor(private readonly db: Database) {}

  async find(serialNumber: string): Promise<SealedSerialKey | undefined> {
    const row = await this.db
      .selectFrom('device_serial_key')
      .select(['sealed_key', 'wrapping_key_id'])
      .where('serial_number', '=', serialNumber)
      .executeTakeFirst();
    return row && { sealedKey: row.sealed_key, wrappingKeyId: row.wrapping_key_id };
  }
}
