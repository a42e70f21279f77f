import { join } from 'node:path';
import { Client } from 'pg';
import { bootstrapAdmin, createPrismaClient, migrateDatabase } from '@fleet/db';

export interface BenchFleet {
  appUrl: string;
  apiKey: string;
  /** A group of ~1 % of the fleet, and a MAC prefix that matches ~1/16 of it. */
  group: string;
  macPrefix: string;
  drop(): Promise<void>;
}

const DATABASE = 'fleet_bench_device_list';

/**
 * A database of its own with `devices` devices inserted in one statement (every third online, every fifth on
 * another board and firmware, 1 % in a group), statistics gathered, and an admin key to call the API with.
 */
export async function createBenchFleet(ownerUrl: string, devices: number, root: string): Promise<BenchFleet> {
  const admin = new URL(ownerUrl);
  const target = new URL(ownerUrl);
  target.pathname = `/${DATABASE}`;
  await withClient(admin.toString(), (c) => c.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`));
  await migrateDatabase(target.toString(), join(root, 'prisma/migrations'));
  await withClient(target.toString(), async (c) => {
    await c.query(
      `INSERT INTO device (id, client_id, board, firmware_version, online, chip_model, last_seen_at, updated_at)
       SELECT regexp_replace(lpad(to_hex(175921860444160 + n), 12, '0'), '(..)(?!$)', '\\1:', 'g'), 'client-' || n,
              CASE WHEN n % 5 = 0 THEN 'esp-box-3' ELSE 'bread-compact-wifi' END,
              CASE WHEN n % 5 = 0 THEN '1.7.0' ELSE '1.6.0' END, n % 3 = 0, 'esp32s3', now(), now()
         FROM generate_series(0, $1 - 1) n`,
      [devices],
    );
    const { rows } = await c.query<{ id: string }>(
      `INSERT INTO device_group (id, name, updated_at) VALUES (gen_random_uuid(), 'bench-group', now()) RETURNING id`,
    );
    await c.query(
      `INSERT INTO device_group_member (device_id, group_id) SELECT id, $1 FROM device WHERE right(id, 2) IN ('00', '64')`,
      [rows[0]!.id],
    );
    await c.query('ANALYZE');
  });
  const appUrl = new URL(target);
  appUrl.username = 'fleet_app';
  const prisma = createPrismaClient(appUrl.toString());
  const bootstrapped = await bootstrapAdmin(prisma, 'bench@localhost');
  await prisma.$disconnect();
  if (!bootstrapped) throw new Error('the bench database already had operators');
  return {
    appUrl: appUrl.toString(),
    apiKey: bootstrapped.apiKey,
    group: 'bench-group',
    macPrefix: 'a0:00:00:00:1',
    drop: () =>
      withClient(admin.toString(), (c) => c.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

async function withClient<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
