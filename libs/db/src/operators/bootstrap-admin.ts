import { generateApiKey } from '@fleet/auth';
import type { PrismaClient } from '../client';

export interface BootstrappedAdmin {
  operatorId: string;
  email: string;
  /** The key in plain text: the only time anyone sees it. */
  apiKey: string;
}

/**
 * On the very first start (no operator exists yet) creates an admin and an API key for them.
 * Returns undefined when operators already exist: a second start never mints another key.
 */
export async function bootstrapAdmin(
  prisma: PrismaClient,
  email = 'admin@localhost',
): Promise<BootstrappedAdmin | undefined> {
  const key = generateApiKey();
  return prisma.$transaction(async (tx) => {
    // Serialise concurrent first starts (two replicas, two terminals) on one advisory lock.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(727073690)`;
    if ((await tx.operator.count()) > 0) return undefined;
    const operator = await tx.operator.create({
      data: {
        email,
        name: 'Administrator',
        role: 'admin',
        apiKeys: {
          create: { name: 'bootstrap', prefix: key.prefix, secretHash: key.secretHash, role: 'admin' },
        },
      },
    });
    await tx.auditEvent.create({
      data: {
        operatorId: operator.id,
        action: 'operator.bootstrap',
        targetType: 'operator',
        targetId: operator.id,
      },
    });
    return { operatorId: operator.id, email, apiKey: key.plaintext };
  });
}
