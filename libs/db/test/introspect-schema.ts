import type { Client } from 'pg';
import { column, foreignKey, index, sortShape, type SchemaShape } from './schema-shape';

/** Tables the migrations create on purpose that schema.prisma does not describe. */
export const EXEMPT_TABLES = ['_prisma_migrations'];

/** What the migrated database really holds, in the shape `expectedSchema` produces. */
export async function introspectSchema(client: Client): Promise<SchemaShape> {
  const shape: SchemaShape = { tables: [], columns: [], enums: [], indexes: [], foreignKeys: [] };
  const exempt = EXEMPT_TABLES;

  const tables = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND NOT (table_name = ANY($1))`,
    [exempt],
  );
  shape.tables = tables.rows.map((r) => r.table_name);

  const columns = await client.query<{
    table: string;
    name: string;
    type: string;
    nullable: boolean;
    dflt: string | null;
  }>(
    `SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
            NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS dflt
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r'
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attnum > 0 AND NOT a.attisdropped AND NOT (c.relname = ANY($1))`,
    [exempt],
  );
  for (const c of columns.rows)
    shape.columns.push(column(c.table, c.name, normaliseType(c.type), c.nullable, normaliseDefault(c.dflt)));

  const enums = await client.query<{ name: string; values: string[] }>(
    `SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS values
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
       JOIN pg_namespace n ON n.oid = t.typnamespace AND n.nspname = 'public'
      GROUP BY t.typname`,
  );
  for (const e of enums.rows) shape.enums.push(`${e.name}: ${e.values.join(', ')}`);

  const indexes = await client.query<{ table: string; primary: boolean; unique: boolean; def: string }>(
    `SELECT t.relname AS table, i.indisprimary AS primary, i.indisunique AS unique, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
      WHERE NOT (t.relname = ANY($1))`,
    [exempt],
  );
  for (const i of indexes.rows) {
    const cols = /\((.*)\)$/
      .exec(i.def)![1]!
      .split(', ')
      .map((c) => c.replace(/"/g, '').replace(/ DESC$/, ' desc'));
    shape.indexes.push(index(i.table, i.primary ? 'primary' : i.unique ? 'unique' : 'index', cols));
  }

  const fks = await client.query<{
    table: string;
    cols: string[];
    ref: string;
    ref_cols: string[];
    del: string;
    upd: string;
  }>(
    `SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS ref,
            ARRAY(SELECT attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY o) AS cols,
            ARRAY(SELECT attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY o) AS ref_cols,
            c.confdeltype AS del, c.confupdtype AS upd
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace AND n.nspname = 'public'
      WHERE c.contype = 'f'`,
  );
  const action: Record<string, string> = {
    a: 'no action',
    r: 'restrict',
    c: 'cascade',
    n: 'set null',
    d: 'set default',
  };
  for (const f of fks.rows) {
    shape.foreignKeys.push(
      foreignKey(unquote(f.table), f.cols, unquote(f.ref), f.ref_cols, action[f.del]!, action[f.upd]!),
    );
  }
  return sortShape(shape);
}

const unquote = (name: string) => name.replace(/"/g, '');

function normaliseType(type: string): string {
  return type
    .replace(/^"(.*)"(\[\])?$/, '$1$2')
    .replace('timestamp(3) without time zone', 'timestamp(3)')
    .replace(/timestamp\((\d)\) with time zone/, 'timestamptz($1)')
    .replace(/^text\[\]$/, 'text[]')
    .replace(/^text$/, 'text')
    .replace(/^integer$/, 'int4')
    .replace(/^smallint$/, 'int2')
    .replace(/^bigint$/, 'int8')
    .replace(/^boolean$/, 'bool')
    .replace(/^character varying\((\d+)\)$/, 'varchar($1)')
    .replace(/^double precision$/, 'float8');
}

function normaliseDefault(dflt: string | null): string {
  if (dflt === null) return 'none';
  if (dflt.startsWith('nextval(')) return 'sequence';
  if (dflt === 'CURRENT_TIMESTAMP') return 'now';
  // Prisma writes a list's `@default([])` as ARRAY[]::TEXT[]; the schema side reads it as `[]`.
  if (/^ARRAY\[\]::[\w" ]+\[\]$/.test(dflt)) return '[]';
  const literal = /^'(.*)'::[\w" ]+$/.exec(dflt);
  if (literal) return literal[1]!.replace(/''/g, "'");
  return dflt; // numbers and booleans print as themselves
}
