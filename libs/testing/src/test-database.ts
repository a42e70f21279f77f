import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { APP_ROLE, databaseUrl, templateDatabase, TEST_POSTGRES_URL } from './postgres-urls';

export interface TestDatabase {
  name: string;
  /** URL for the application role (what services connect as). */
  url: string;
  /** URL for the owner role (migrations, fixtures that bypass the app's rights, tampering in tests). */
  ownerUrl: string;
  drop(): Promise<void>;
}

/** A fresh database cloned from the migrated template; no other test file ever sees it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `fleet_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await cloneTemplate(admin, name);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: databaseUrl(name, APP_ROLE),
    ownerUrl: databaseUrl(name),
    async drop() {
      const client = new Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await letClosingConnectionsGo(client, name);
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

// Two workers cloning the same template at the same instant can see "source database is being accessed
// by other users"; the clone itself takes milliseconds, so a few retries settle it.
async function cloneTemplate(admin: Client, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabase()}"`);
      return;
    } catch (err) {
      if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    }
  }
}

/**
 * pg's `pool.end()` resolves once it has asked each connection to close, not once the server has let it go. A
 * FORCE drop in that moment terminates the backend under the closing client, whose error event then reaches the
 * pool's idle listener with nobody listening: an uncaught error that Jest pins on whatever test runs next. So wait
 * (briefly) for the connections to go; FORCE is for those a test really left open.
 */
async function letClosingConnectionsGo(admin: Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    if (rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
