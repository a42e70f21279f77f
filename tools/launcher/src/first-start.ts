import { bootstrapAdmin, createPgPool, createPrismaClient, SignInLinksRepository } from '@fleet/db';
import type { FirstStart } from './banner';

/** The very first start: an admin with an API key, and a one-time link to the console to set a password. */
export async function bootstrapFirstAdmin(url: string): Promise<FirstStart | undefined> {
  const prisma = createPrismaClient(url, { poolSize: 1 });
  try {
    const admin = await bootstrapAdmin(prisma);
    if (!admin) return undefined;
    const pool = createPgPool(url, { max: 1 });
    try {
      const link = await new SignInLinksRepository(pool).issue(admin.operatorId);
      return { admin, signInToken: link.token, signInExpiresAt: link.expiresAt };
    } finally {
      await pool.end();
    }
  } finally {
    await prisma.$disconnect();
  }
}
