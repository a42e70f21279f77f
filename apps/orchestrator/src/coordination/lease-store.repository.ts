import type { Pool } from '@fleet/db';

export interface Lease {
  name: string;
  token: string;
}

/**
 * Named leases in Postgres with a fencing token that grows every time a lease changes hands. Writes made
 * under a lease name the token they hold (see Fence), so a replica that lost its lease cannot write any more.
 */
export class LeaseStore {
  constructor(
    private readonly pool: Pool,
    private readonly holder: string,
    private readonly ttlMs: number,
  ) {}

  /**
   * Takes the lease when it is free or expired; renews it when this holder has it already. The row is first
   * locked FOR UPDATE, which waits for every commit batch still writing under the lease (they hold it FOR KEY
   * SHARE, which a plain UPDATE would not wait for): a new owner starts only after the old one's last write.
   */
  async acquire(name: string): Promise<Lease | undefined> {
    const { rows } = await this.pool.query<{ token: string }>(
      `WITH fence AS (SELECT name FROM service_lease WHERE name = $1 FOR UPDATE)
       INSERT INTO service_lease (name, holder, token, expires_at)
       SELECT $1::text, $2::text, 1, now() + make_interval(secs => $3::double precision / 1000)
         FROM (SELECT count(*) FROM fence) AS f
       ON CONFLICT (name) DO UPDATE
         SET holder = EXCLUDED.holder,
             token = CASE WHEN service_lease.holder = EXCLUDED.holder THEN service_lease.token ELSE service_lease.token + 1 END,
             expires_at = EXCLUDED.expires_at
       WHERE service_lease.expires_at < now() OR service_lease.holder = EXCLUDED.holder
       RETURNING token::text`,
      [name, this.holder, this.ttlMs],
    );
    return rows[0] ? { name, token: rows[0].token } : undefined;
  }

  /** Extends the leases this holder still has; returns the names it still holds. */
  async renew(leases: Lease[]): Promise<Set<string>> {
    if (leases.length === 0) return new Set();
    const { rows } = await this.pool.query<{ name: string }>(
      `UPDATE service_lease l SET expires_at = now() + make_interval(secs => $4::double precision / 1000)
         FROM unnest($1::text[], $2::bigint[]) AS u(name, token)
        WHERE l.name = u.name AND l.token = u.token AND l.holder = $3 AND l.expires_at > now()
        RETURNING l.name`,
      [leases.map((l) => l.name), leases.map((l) => l.token), this.holder, this.ttlMs],
    );
    return new Set(rows.map((r) => r.name));
  }

  async release(lease: Lease): Promise<void> {
    await this.pool.query(
      `UPDATE service_lease SET expires_at = now() - interval '1 millisecond' WHERE name = $1 AND holder = $2 AND token = $3`,
      [lease.name, this.holder, lease.token],
    );
  }

  async heartbeat(kind: string): Promise<number> {
    const { rows } = await this.pool.query<{ live: number }>(
      `WITH beat AS (
         INSERT INTO service_instance (id, kind, heartbeat_at) VALUES ($1, $2, now())
         ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
       )
       SELECT count(*)::int + CASE WHEN bool_or(id = $1) THEN 0 ELSE 1 END AS live
         FROM service_instance
        WHERE kind = $2 AND heartbeat_at > now() - make_interval(secs => $3::double precision / 1000)`,
      [this.holder, kind, this.ttlMs],
    );
    return Math.max(1, rows[0]?.live ?? 1);
  }

  async leave(kind: string): Promise<void> {
    await this.pool.query('DELETE FROM service_instance WHERE id = $1 AND kind = $2', [this.holder, kind]);
  }
}
