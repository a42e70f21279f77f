// The database client per request (DESIGN §8; README "Database and migrations"): the admin API's per-request
// credentials lookup (an API key by prefix, with its operator) and a device's current catalog, each through the
// Prisma client and through Kysely over pg, in one process against one database, call after call.
//   npm run build && node dist/tools/bench/src/db-access.bench.js [--calls 5000]
// Prints one JSON document on stdout, then a summary on stderr.
import { parseArgs } from 'node:util';
import { createDatabase, createPgPool, createPrismaClient, DeviceCatalogRepository } from '@fleet/db';
import { loadBenchConfig } from './config';
import { createBenchDatabase } from './harness/bench-database';
import { printResult, table } from './harness/report';
import { timeCalls, type QueryTiming } from './db-access/query-timing';
import { seedDeviceWithCatalog, seedKey } from './db-access/seed';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { calls: { type: 'string', default: '5000' } } });
  const calls = Number(values.calls);
  const config = loadBenchConfig();
  const database = await createBenchDatabase(config, 'db_access');
  const pool = createPgPool(database.appUrl, { max: 1 });
  const prisma = createPrismaClient(database.appUrl, { poolSize: 1 });
  const db = createDatabase(pool);
  try {
    const prefix = await seedKey(pool);
    const deviceId = await seedDeviceWithCatalog(pool, 20);
    const catalogs = new DeviceCatalogRepository(db);
    const results: QueryTiming[] = [
      await timeCalls('API key by prefix, with its operator: Prisma', calls, () =>
        prisma.apiKey.findUnique({ where: { prefix }, include: { operator: true } }),
      ),
      await timeCalls('API key by prefix, with its operator: Kysely', calls, () =>
        db
          .selectFrom('api_key')
          .innerJoin('operator', 'operator.id', 'api_key.operator_id')
          .select([
            'api_key.id',
            'api_key.secret_hash',
            'api_key.role',
            'api_key.revoked_at',
            'operator.email',
          ])
          .where('api_key.prefix', '=', prefix)
          .executeTakeFirst(),
      ),
      await timeCalls("a device's current catalog (20 tools): Prisma", calls, () =>
        prisma.device.findUnique({
          where: { id: deviceId },
          select: {
            catalogVersion: { select: { catalog: { select: { tools: { orderBy: { position: 'asc' } } } } } },
          },
        }),
      ),
      await timeCalls("a device's current catalog (20 tools): Kysely", calls, () =>
        catalogs.currentTools(deviceId),
      ),
    ];
    printResult('db-access', results, [
      `One connection, ${calls} calls each after a warm-up, in this process (Prisma 7 through @prisma/adapter-pg;`,
      'Kysely through pg). CPU is the client process only.',
      '',
      ...table(
        ['query', 'ms per call', 'client CPU µs per call'],
        results.map((r) => [r.name, r.msPerCall, r.cpuUsPerCall]),
      ),
    ]);
  } finally {
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`db-access benchmark failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
