import { randomUUID } from 'node:crypto';
import { createDatabase, type Pool } from '@fleet/db';

/** An operator and one API key of theirs; returns the key's prefix (what a request presents). */
export async function seedKey(pool: Pool): Promise<string> {
  const db = createDatabase(pool);
  const operator = randomUUID();
  await db
    .insertInto('operator')
    .values({ id: operator, email: 'bench@localhost', name: 'Bench', role: 'admin' })
    .execute();
  const prefix = 'fk_bench01';
  await db
    .insertInto('api_key')
    .values({
      id: randomUUID(),
      operator_id: operator,
      name: 'bench',
      prefix,
      secret_hash: 'x',
      role: 'admin',
    })
    .execute();
  return prefix;
}

/** A device whose current catalog has `tools` tools; returns its id. */
export async function seedDeviceWithCatalog(pool: Pool, tools: number): Promise<string> {
  const db = createDatabase(pool);
  const deviceId = 'a0:85:e3:be:00:01';
  await db
    .insertInto('device')
    .values({ id: deviceId, client_id: 'bench', updated_at: new Date() })
    .execute();
  const catalog = randomUUID();
  await db.insertInto('tool_catalog').values({ id: catalog, hash: 'bench', tool_count: tools }).execute();
  await db
    .insertInto('tool')
    .values(
      Array.from({ length: tools }, (_, i) => ({
        catalog_id: catalog,
        position: i,
        name: `self.bench.tool_${i}`,
        description: `Bench tool ${i}: sets or reads something on the device`,
        input_schema: JSON.stringify({ type: 'object', properties: { value: { type: 'integer' } } }),
        user_only: i % 5 === 0,
      })),
    )
    .execute();
  const version = randomUUID();
  await db
    .insertInto('device_catalog_version')
    .values({ id: version, device_id: deviceId, version: 1, catalog_id: catalog, exchanges: '[]' })
    .execute();
  await db.updateTable('device').set({ catalog_version_id: version }).where('id', '=', deviceId).execute();
  return deviceId;
}
