import type { Client } from 'pg';

/** The run's database on disk (tables, indexes, TOAST), as Postgres counts it. */
export async function databaseBytes(sql: Client, database: string): Promise<number> {
  const { rows } = await sql.query<{ bytes: string }>('SELECT pg_database_size($1) AS bytes', [database]);
  return Number(rows[0]?.bytes ?? 0);
}
