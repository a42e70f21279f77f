import { createDatabase, sql, type Database, type Pool } from '@fleet/db';

export interface Lease {
  name: string;
  token: string;
}

/**
 * Named leases in Postgres with a fencing token that grows every time a lease changes hands. Writes made
 * under a lease name the token they hold (see Fence), so a replica that lost its lease cannot write any more.
 */
export class LeaseStore {
  private readonly db: Database;

  constructor(
    pool: Pool,
    private readonly holder: string,
    private readonly ttlMs: number,
  ) {
    this.db = createDatabase(pool);
  }

  /**
   * Takes the lease when it is free or expired; renews it when this holder has it already. The row is first
   * locked FOR UPDATE, which waits for every commit batch still writing under the lease (they hold it FOR KEY
   * SHARE, which a plain UPDATE would not wait for): a new owner starts only after the old one's last write.
   */
  async acquire(name: string): Promise<Lease | undefined> {
    const { rows } = await sql<Pick<Lease, 'token'>>`
      WITH fence AS (SELECT name FROM service_lease WHERE name = ${name} FOR UPDATE)
      INSERT INTO service_lease (name, holder, token, expires_at)
      SELECT ${name}::text, ${this.holder}::text, 1, now() + make_interval(secs => ${this.ttlMs}::double precision / 1000)
        FROM (SELECT count(*) FROM fence) AS f
      ON CONFLICT (name) DO UPDATE
        SET holder = EXCLUDED.holder,
            token = CASE WHEN service_lease.holder = EXCLUDED.holder THEN service_lease.token ELSE service_lease.token + 1 END,
            expires_at = EXCLUDED.expires_at
      WHERE service_lease.expires_at < now() OR service_lease.holder = EXCLUDED.holder
      RETURNING token::text`.execute(this.db);
    return rows[0] ? { name, token: rows[0].token } : undefined;
  }

  /** Extends the leases this holder still has; returns the names it still holds. */
  async renew(leases: Lease[]): Promise<Set<string>> {
    if (leases.length === 0) return new Set();
    // One statement for every lease (unnest), however many partitions this replica holds.
    const { rows } = await sql<Pick<Lease, 'name'>>`
      UPDATE service_lease l SET expires_at = now() + make_interval(secs => ${this.ttlMs}::double precision / 1000)
        FROM unnest(${leases.map((l) => l.name)}::text[], ${leases.map((l) => l.token)}::bigint[]) AS u(name, token)
       WHERE l.name = u.name AND l.token = u.token AND l.holder = ${this.holder} AND l.expires_at > now()
       RETURNING l.name`.execute(this.db);
    return new Set(rows.map((r) => r.name));
  }

  async release(lease: Lease): Promise<void> {
    await this.db
      .updateTable('service_lease')
      .set({ expires_at: sql<Date>`now() - interval '1 millisecond'` })
      .where('name', '=', lease.name)
      .where('holder', '=', this.holder)
      .where('token', '=', lease.token)
      .execute();
  }

  /**
   * This holder's heartbeat, the renewal of the leases it still has, and the count of live replicas of its kind,
   * in one statement: a round trip a round instead of two. The count cannot see the beat (one snapshot), hence
   * the + 1; a failed round writes neither the beat nor the renewals, as when the first of two failed before.
   */
  async beatAndRenew(kind: string, leases: Lease[]): Promise<{ live: number; held: Set<string> }> {
    const { rows } = await sql<{ live: number; held: string[] }>`
      WITH beat AS (
        INSERT INTO service_instance (id, kind, heartbeat_at) VALUES (${this.holder}, ${kind}, now())
        ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
      ), renewed AS (
        UPDATE service_lease l SET expires_at = now() + make_interval(secs => ${this.ttlMs}::double precision / 1000)
          FROM unnest(${leases.map((l) => l.name)}::text[], ${leases.map((l) => l.token)}::bigint[]) AS u(name, token)
         WHERE l.name = u.name AND l.token = u.token AND l.holder = ${this.holder} AND l.expires_at > now()
         RETURNING l.name
      )
      SELECT (SELECT count(*)::int + CASE WHEN bool_or(id = ${this.holder}) THEN 0 ELSE 1 END
                FROM service_instance
               WHERE kind = ${kind}
                 AND heartbeat_at > now() - make_interval(secs => ${this.ttlMs}::double precision / 1000)) AS live,
             ARRAY(SELECT name FROM renewed) AS held`.execute(this.db);
    return { live: Math.max(1, rows[0]?.live ?? 1), held: new Set(rows[0]?.held ?? []) };
  }

  async leave(kind: string): Promise<void> {
    await this.db
      .deleteFrom('service_instance')
      .where('id', '=', this.holder)
      .where('kind', '=', kind)
      .execute();
  }
}
