import type { Pool } from 'pg';
import type { HealthCheck } from '@fleet/telemetry';
import { HOW_TO_START } from '@fleet/telemetry';

export function postgresHealthCheck(pool: Pool): HealthCheck {
  return {
    name: 'postgres',
    hint: HOW_TO_START.postgres,
    async check() {
      await pool.query('SELECT 1');
    },
  };
}
