import { parseApiKey, verifyApiKeySecret } from '@fleet/auth';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createPrismaClient, type PrismaClient } from '../client';
import { bootstrapAdmin } from './bootstrap-admin';

describe('bootstrapAdmin', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.url);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  it('creates one admin with a working key on the first start only, even when two starts race', async () => {
    const results = await Promise.all([bootstrapAdmin(prisma), bootstrapAdmin(prisma)]);
    const created = results.filter((r) => r !== undefined);
    expect(created).toHaveLength(1);
    const parsed = parseApiKey(created[0]!.apiKey)!;
    const stored = await prisma.apiKey.findUniqueOrThrow({
      where: { prefix: parsed.prefix },
      include: { operator: true },
    });
    expect(stored.operator.role).toBe('admin');
    expect(verifyApiKeySecret(parsed.secret, stored.secretHash)).toBe(true);
    await expect(bootstrapAdmin(prisma)).resolves.toBeUndefined();
    expect(await prisma.auditEvent.count({ where: { action: 'operator.bootstrap' } })).toBe(1);
  });
});
