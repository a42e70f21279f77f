export { createPrismaClient, PrismaClient, type Prisma } from './prisma-client';
export { createPgPool, Pool } from './pg-pool';
export { postgresHealthCheck } from './postgres-health';
