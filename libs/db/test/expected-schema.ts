import { readFileSync } from 'node:fs';
import { getDMMF } from '@prisma/internals';
import { column, foreignKey, index, sortShape, type SchemaShape } from './schema-shape';

type Dmmf = Awaited<ReturnType<typeof getDMMF>>;
type Model = Dmmf['datamodel']['models'][number];
type Field = Model['fields'][number];

// Prisma's scalar types and the Postgres types its migrations create for them (no native type given).
const SCALAR_TO_PG: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Boolean: 'bool',
  DateTime: 'timestamp(3)',
  Json: 'jsonb',
  Bytes: 'bytea',
  Float: 'float8',
  Decimal: 'numeric(65,30)',
};

const NATIVE_TO_PG: Record<string, (args: string[]) => string> = {
  Uuid: () => 'uuid',
  SmallInt: () => 'int2',
  Timestamptz: ([p]) => `timestamptz(${p ?? 6})`,
  Timestamp: ([p]) => `timestamp(${p ?? 6})`,
  VarChar: ([n]) => `varchar(${n})`,
  Text: () => 'text',
};

/** What `schema.prisma` says the database holds, in the same shape as the introspected one. */
export async function expectedSchema(schemaPath: string): Promise<SchemaShape> {
  const dmmf = await getDMMF({ datamodel: readFileSync(schemaPath, 'utf8') });
  const { models, enums, indexes } = dmmf.datamodel;
  const tableOf = new Map(models.map((m) => [m.name, m.dbName ?? m.name]));
  const columnOf = (model: string, field: string) => {
    const f = models.find((m) => m.name === model)!.fields.find((x) => x.name === field)!;
    return f.dbName ?? f.name;
  };
  const enumNames = new Set(enums.map((e) => e.name));
  const shape: SchemaShape = { tables: [], columns: [], enums: [], indexes: [], foreignKeys: [] };

  for (const e of enums)
    shape.enums.push(`${e.dbName ?? e.name}: ${e.values.map((v) => v.dbName ?? v.name).join(', ')}`);

  for (const model of models) {
    const table = tableOf.get(model.name)!;
    shape.tables.push(table);
    for (const field of model.fields) {
      if (field.kind === 'object') {
        if (field.relationFromFields?.length) {
          const onDelete = field.relationOnDelete ?? (field.isRequired ? 'Restrict' : 'SetNull');
          shape.foreignKeys.push(
            foreignKey(
              table,
              field.relationFromFields.map((f) => columnOf(model.name, f)),
              tableOf.get(field.type)!,
              (field.relationToFields ?? []).map((f) => columnOf(field.type, f)),
              referentialAction(onDelete),
              'cascade',
            ),
          );
        }
        continue;
      }
      // Prisma creates scalar lists (String[]) as nullable array columns, "required" or not.
      const nullable = field.isList || !field.isRequired;
      shape.columns.push(
        column(table, field.dbName ?? field.name, pgType(field, enumNames), nullable, pgDefault(field)),
      );
    }
  }

  for (const idx of indexes) {
    const table = tableOf.get(idx.model)!;
    const cols = idx.fields.map((f) => columnOf(idx.model, f.name) + (f.sortOrder === 'desc' ? ' desc' : ''));
    const kind = idx.type === 'id' ? 'primary' : idx.type === 'unique' ? 'unique' : 'index';
    shape.indexes.push(index(table, kind, cols));
  }
  return sortShape(shape);
}

function pgType(field: Field, enumNames: Set<string>): string {
  let base: string;
  if (field.kind === 'enum' || enumNames.has(field.type)) base = field.type;
  else if (field.nativeType) {
    const [name, args] = field.nativeType as [string, string[]];
    const map = NATIVE_TO_PG[name];
    if (!map) throw new Error(`add native type ${name} to the schema test`);
    base = map(args);
  } else {
    const mapped = SCALAR_TO_PG[field.type];
    if (!mapped) throw new Error(`add scalar type ${field.type} to the schema test`);
    base = mapped;
  }
  return field.isList ? `${base}[]` : base;
}

function pgDefault(field: Field): string {
  if (!field.hasDefaultValue || field.default === undefined) return 'none';
  const d = field.default as unknown;
  if (typeof d === 'object' && d !== null && 'name' in d) {
    const name = (d as { name: string }).name;
    if (name === 'autoincrement') return 'sequence';
    if (name === 'now') return 'now';
    // uuid() and cuid() are filled in by the client, not by the database.
    if (name === 'uuid' || name === 'cuid') return 'none';
    throw new Error(`add default function ${name} to the schema test`);
  }
  if (Array.isArray(d)) return `[${d.join(',')}]`;
  return String(d);
}

function referentialAction(action: string): string {
  return {
    Cascade: 'cascade',
    Restrict: 'restrict',
    NoAction: 'no action',
    SetNull: 'set null',
    SetDefault: 'set default',
  }[action]!;
}
