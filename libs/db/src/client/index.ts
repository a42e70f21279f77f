export { createPrismaClient, PrismaClient, type Prisma } from './prisma-client';
export { createPgPool, Pool, PoolBusyError } from './pg-pool';
export { postgresHealthCheck } from './postgres-health';
export {
  createDatabase,
  queryCompiler,
  sql,
  type Database,
  type DB,
  type NewRow,
  type Row,
  type RowUpdate,
  type Transaction,
} from './kysely';
export { databaseOn } from './single-connection';
export { jsonObject, jsonParam } from './json-columns';
export { retriedOnDeadlock } from './deadlock-retry';
export { findCause, isDatabaseUnavailable, isPostgresUnreachableError } from './unreachable';
