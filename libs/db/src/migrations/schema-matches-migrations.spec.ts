import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { expectedSchema } from '../../test/expected-schema';
import { EXEMPT_TABLES, introspectSchema } from '../../test/introspect-schema';

const root = join(__dirname, '../../../..');

describe('migrations and schema.prisma', () => {
  let db: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase(); // cloned from the template that global setup migrated
    client = new Client({ connectionString: db.ownerUrl });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it('produce exactly the tables, columns, types, defaults, enums, indexes and foreign keys the schema describes', async () => {
    const [expected, actual] = await Promise.all([
      expectedSchema(join(root, 'prisma/schema.prisma')),
      introspectSchema(client),
    ]);
    expect(actual.tables).toEqual(expected.tables);
    expect(actual.enums).toEqual(expected.enums);
    expect(actual.columns).toEqual(expected.columns);
    expect(actual.indexes).toEqual(expected.indexes);
    expect(actual.foreignKeys).toEqual(expected.foreignKeys);
  });

  it('exempt only the tables Prisma itself keeps', () => {
    expect(EXEMPT_TABLES).toEqual(['_prisma_migrations']);
  });
});
