import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export { PrismaClient } from '../generated/prisma/client';
export type { Prisma } from '../generated/prisma/client';

/** Prisma 7 through the pg driver adapter: no native query engine to download. */
export function createPrismaClient(
  url: string,
  { poolSize = 10, connectionTimeoutMs }: { poolSize?: number; connectionTimeoutMs?: number } = {},
): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg({
      connectionString: url,
      max: poolSize,
      ...(connectionTimeoutMs !== undefined ? { connectionTimeoutMillis: connectionTimeoutMs } : {}),
    }),
  });
}
