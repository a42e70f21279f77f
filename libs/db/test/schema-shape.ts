// A database schema reduced to what both Prisma's schema and Postgres' catalog can state, as sorted lines,
// so that a difference reads as a diff of lines ("+ column call.foo text null").
export interface SchemaShape {
  tables: string[];
  columns: string[];
  enums: string[];
  indexes: string[];
  foreignKeys: string[];
}

export const column = (table: string, name: string, type: string, nullable: boolean, dflt: string) =>
  `${table}.${name} ${type} ${nullable ? 'null' : 'not null'} default=${dflt}`;

export const index = (table: string, kind: 'primary' | 'unique' | 'index', columns: string[]) =>
  `${table} ${kind} (${columns.join(', ')})`;

export const foreignKey = (
  table: string,
  cols: string[],
  refTable: string,
  refCols: string[],
  onDelete: string,
  onUpdate: string,
) =>
  `${table}(${cols.join(', ')}) -> ${refTable}(${refCols.join(', ')}) on delete ${onDelete} on update ${onUpdate}`;

export function sortShape(shape: SchemaShape): SchemaShape {
  return {
    tables: [...shape.tables].sort(),
    columns: [...shape.columns].sort(),
    enums: [...shape.enums].sort(),
    indexes: [...shape.indexes].sort(),
    foreignKeys: [...shape.foreignKeys].sort(),
  };
}
