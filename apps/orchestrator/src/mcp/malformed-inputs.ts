import type { Pool } from '@fleet/db';
import type { Logger } from '@fleet/telemetry';

export interface MalformedInput {
  deviceId: string;
  connectionId?: string;
  kind: string;
  error: string;
  raw: Buffer;
}

/** Device input nobody could use (an unknown id, unreadable bytes): kept raw, never dropped silently. */
export class MalformedInputs {
  private buffer: MalformedInput[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
  ) {}

  record(input: MalformedInput): void {
    this.buffer.push(input);
    this.timer ??= setTimeout(() => void this.flush(), 50);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.buffer.splice(0);
    if (rows.length === 0) return;
    try {
      await this.pool.query(
        `INSERT INTO malformed_input (device_id, connection_id, kind, error, raw)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bytea[])`,
        [
          rows.map((r) => r.deviceId),
          rows.map((r) => r.connectionId ?? null),
          rows.map((r) => r.kind),
          rows.map((r) => r.error),
          rows.map((r) => r.raw),
        ],
      );
    } catch (err) {
      this.logger.error({ err, count: rows.length }, 'cannot record malformed device input');
    }
  }
}
