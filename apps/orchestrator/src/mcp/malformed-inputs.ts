import { createDatabase, type Pool } from '@fleet/db';
import type { Logger } from '@fleet/telemetry';
import { MalformedInputsRepository } from './malformed-inputs.repository';

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
  private readonly repository: MalformedInputsRepository;

  constructor(
    pool: Pool,
    private readonly logger: Logger,
  ) {
    this.repository = new MalformedInputsRepository(createDatabase(pool));
  }

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
      await this.repository.insert(rows);
    } catch (err) {
      this.logger.error({ err, count: rows.length }, 'cannot record malformed device input');
    }
  }
}
