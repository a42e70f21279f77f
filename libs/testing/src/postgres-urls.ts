// Where tests find Postgres. The owner role migrates and clones; services under test connect as fleet_app,
// so a missing grant fails a test instead of production.
export const TEST_POSTGRES_URL =
  process.env['TEST_POSTGRES_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const APP_ROLE = 'fleet_app';

/**
 * The migrated template each test file clones. Its name carries the checksum of the migrations it was built from
 * (Jest's global setup names it and passes the name on to the workers), so two checkouts with different
 * migrations can run their tests on one Postgres at once without rebuilding each other's template.
 */
export function templateDatabaseName(migrationsChecksum: string): string {
  return `fleet_test_template_${migrationsChecksum.slice(0, 16)}`;
}

export function templateDatabase(): string {
  const name = process.env['FLEET_TEST_TEMPLATE'];
  if (!name)
    throw new Error('FLEET_TEST_TEMPLATE is unset: the tests run through Jest, whose global setup sets it');
  return name;
}

export function databaseUrl(database: string, role?: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${database}`;
  if (role) url.username = role;
  return url.toString();
}
