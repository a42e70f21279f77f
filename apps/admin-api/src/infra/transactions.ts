import { Inject, Injectable } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { PG_POOL } from './tokens';

/** A transaction in progress; services pass it to repositories without knowing it is a pg client. */
export type Tx = PoolClient;

/** Runs a service's work in one transaction: everything it wrote commits together or not at all. */
@Injectable()
export class Transactions {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}
