import { z } from 'zod';
import { envLogLevel, envNodeEnv, envUrl } from './env-types';

// Defaults fit one machine of the kind this project runs on: Postgres with trust auth and Redis on loopback.
export const DEFAULT_DATABASE_URL = 'postgresql://fleet_app@127.0.0.1:5432/fleet';
export const DEFAULT_MIGRATION_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/fleet';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const commonEnv = {
  NODE_ENV: envNodeEnv(),
  LOG_LEVEL: envLogLevel(),
};

export const databaseEnv = {
  DATABASE_URL: envUrl(DEFAULT_DATABASE_URL, ['postgresql:', 'postgres:']),
};

export const redisEnv = {
  REDIS_URL: envUrl(DEFAULT_REDIS_URL, ['redis:', 'rediss:']),
  /** Key prefix for BullMQ, so that two platforms can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9:_-]+$/)
    .default('fleet'),
};
