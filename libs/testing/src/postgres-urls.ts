// Where tests find Postgres. The owner role migrates and clones; services under test connect as fleet_app,
// so a missing grant fails a test instead of production.
export const TEST_POSTGRES_URL =
  process.env['TEST_POSTGRES_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const TEMPLATE_DATABASE = 'fleet_test_template';
export const APP_ROLE = 'fleet_app';

export function databaseUrl(database: string, role?: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${database}`;
  if (role) url.username = role;
  return url.toString();
}
