/** The last `limit` entries of something a device observed (0 keeps nothing: the fleet's default at scale). */
export class BoundedLog<T> {
  private items: T[] | undefined;

  constructor(private readonly limit: number) {}

  push(item: T): void {
    if (this.limit <= 0) return;
    this.items ??= [];
    this.items.push(item);
    if (this.items.length > this.limit) this.items.shift();
  }

  get all(): readonly T[] {
    return this.items ?? [];
  }

  clear(): void {
    this.items = undefined;
  }
}
