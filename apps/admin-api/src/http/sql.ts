/** Positional parameters for SQL assembled from optional filters: `where.push(\`board = ${p.add(x)}\`)`. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
