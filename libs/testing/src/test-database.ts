import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { APP_ROLE, databaseUrl, TEMPLATE_DATABASE, TEST_POSTGRES_URL } from './postgres-urls';

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
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`);
      return;
    } catch (err) {
      if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    }
  }
}
