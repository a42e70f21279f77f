import { escapeIdentifier, type ClientBase } from 'pg';

/** How the evidence table is stored: `plain` as the migrations create it, or already `partitioned`. */
export type EvidenceLayout = 'plain' | 'partitioned';

export interface EvidenceSpan {
  rows: number;
  oldest: Date | null;
  newest: Date | null;
}

/**
 * The statements that look at and extend the evidence table's monthly partitions (DESIGN §6). A partition holds
 * one UTC month, [from, to). There is no default partition: a row whose month has none fails its INSERT (see
 * docs/SCALING.md, "Evidence partitioned by time", for why that is the safer failure).
 */
export const evidencePartitionsRepository = {
  async layout(client: ClientBase): Promise<EvidenceLayout> {
    const { rows } = await client.query<{ relkind: string }>(
      `SELECT c.relkind FROM pg_class c WHERE c.oid = to_regclass('evidence')`,
    );
    const kind = rows[0]?.relkind;
    if (kind === 'r') return 'plain';
    if (kind === 'p') return 'partitioned';
    throw new Error(`no evidence table to partition (relkind ${kind ?? 'missing'}): run db:migrate first`);
  },

  /** Refuses to wait behind a long transaction for ever, holding everyone else's queries behind this one. */
  async lock(client: ClientBase, lockTimeout: string): Promise<void> {
    await client.query(`SELECT set_config('lock_timeout', $1, true)`, [lockTimeout]);
    await client.query('LOCK TABLE evidence IN ACCESS EXCLUSIVE MODE');
  },

  async span(client: ClientBase): Promise<EvidenceSpan> {
    const { rows } = await client.query<{ rows: number; oldest: Date | null; newest: Date | null }>(
      'SELECT count(*)::int AS rows, min(created_at) AS oldest, max(created_at) AS newest FROM evidence',
    );
    return rows[0]!;
  },

  /** The partitions of a partitioned table, by name. */
  async partitions(client: ClientBase, parent: string): Promise<string[]> {
    const { rows } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = $1::regclass ORDER BY 1`,
      [parent],
    );
    return rows.map((r) => r.name);
  },

  /**
   * One month's partition. Row triggers, indexes and the foreign key of the parent are cloned onto it by Postgres;
   * a TRUNCATE trigger is not (it is per statement, and a TRUNCATE of one partition fires only that partition's),
   * so each partition gets its own.
   */
  async createMonth(
    client: ClientBase,
    parent: string,
    name: string,
    from: string,
    to: string,
  ): Promise<void> {
    const table = escapeIdentifier(name);
    await client.query(
      `CREATE TABLE ${table} PARTITION OF ${escapeIdentifier(parent)} FOR VALUES FROM ('${from}') TO ('${to}')`,
    );
    await client.query(
      `CREATE TRIGGER evidence_append_only_truncate BEFORE TRUNCATE ON ${table}
         FOR EACH STATEMENT EXECUTE FUNCTION evidence_append_only()`,
    );
  },
};
