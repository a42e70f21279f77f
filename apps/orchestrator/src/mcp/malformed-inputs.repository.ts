import type { Database } from '@fleet/db';
import type { MalformedInput } from './malformed-inputs';

/** `malformed_input`: device input nobody could use, kept raw. */
export class MalformedInputsRepository {
  constructor(private readonly db: Database) {}

  async insert(rows: readonly MalformedInput[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('malformed_input')
      .values(
        rows.map((r) => ({
          device_id: r.deviceId,
          connection_id: r.connectionId ?? null,
          kind: r.kind,
          error: r.error,
          raw: r.raw,
        })),
      )
      .execute();
  }
}
