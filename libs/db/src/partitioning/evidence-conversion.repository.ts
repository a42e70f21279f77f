import type { ClientBase } from 'pg';

/** What the migrations put on the plain evidence table, beyond its columns and CHECK constraints. */
export interface PlainEvidenceShape {
  indexes: string[];
  triggers: string[];
  foreignKeys: string[];
}

/**
 * The statements that turn the plain evidence table into one partitioned by created_at (DESIGN §6), run by
 * partitionEvidence in one transaction. The partitioned table is built beside the plain one as
 * evidence_partitioned, filled, and takes the plain one's name once that is dropped.
 */
export const evidenceConversionRepository = {
  async plainShape(client: ClientBase): Promise<PlainEvidenceShape> {
    const names = async (sql: string) =>
      (await client.query<{ name: string }>(sql)).rows.map((r) => r.name).sort();
    return {
      indexes: await names(
        `SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'evidence'::regclass`,
      ),
      triggers: await names(
        `SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'evidence'::regclass AND NOT tgisinternal`,
      ),
      foreignKeys: await names(
        `SELECT conname AS name FROM pg_constraint WHERE conrelid = 'evidence'::regclass AND contype = 'f'`,
      ),
    };
  },

  /** Same columns, defaults (the id sequence), NOT NULLs and CHECK constraints as the plain table. */
  async createPartitioned(client: ClientBase): Promise<void> {
    await client.query(
      `CREATE TABLE evidence_partitioned
         (LIKE evidence INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION
          INCLUDING COMMENTS)
         PARTITION BY RANGE (created_at)`,
    );
  },

  /** Every row into the partition of its month; LIKE kept the column order, so the rows go as they are. */
  async copyRows(client: ClientBase): Promise<number> {
    const result = await client.query('INSERT INTO evidence_partitioned SELECT * FROM evidence');
    return result.rowCount ?? 0;
  },

  /** The id sequence goes with the new table (dropping the plain one would drop a sequence it owns). */
  async swap(client: ClientBase): Promise<void> {
    const { rows } = await client.query<{ seq: string | null }>(
      `SELECT pg_get_serial_sequence('evidence', 'id') AS seq`,
    );
    if (rows[0]?.seq) await client.query(`ALTER SEQUENCE ${rows[0].seq} OWNED BY evidence_partitioned.id`);
    await client.query('DROP TABLE evidence');
    await client.query('ALTER TABLE evidence_partitioned RENAME TO evidence');
  },

  /**
   * The indexes the code reads through, under the names they had where a name can stay. A unique index of a
   * partitioned table must include the partition key, so the primary key becomes (id, created_at) and
   * (call_id, stage), (device_id, seq) are plain indexes here: their uniqueness is kept by evidence_key.
   */
  async addIndexesAndKeys(client: ClientBase): Promise<void> {
    await client.query('ALTER TABLE evidence ADD CONSTRAINT evidence_pkey PRIMARY KEY (id, created_at)');
    await client.query('CREATE INDEX evidence_created_at_idx ON evidence (created_at)');
    await client.query('CREATE INDEX evidence_call_id_stage_idx ON evidence (call_id, stage)');
    await client.query('CREATE INDEX evidence_device_id_seq_idx ON evidence (device_id, seq)');
    await client.query(
      `ALTER TABLE evidence ADD CONSTRAINT evidence_call_id_fkey FOREIGN KEY (call_id) REFERENCES call (id)
         ON DELETE RESTRICT ON UPDATE CASCADE`,
    );
  },

  /**
   * A narrow, unpartitioned table holding each row's (device_id, seq) and (call_id, stage) under unique
   * constraints named as the plain table's unique indexes were: a duplicate fails with the same SQLSTATE (23505)
   * and constraint name, so the writer's chain-conflict retry (isChainConflict) works unchanged, and a concurrent
   * duplicate waits for the first transaction as a unique index makes it.
   */
  async createKeyTable(client: ClientBase): Promise<void> {
    await client.query(
      `CREATE TABLE evidence_key (device_id TEXT NOT NULL, seq BIGINT NOT NULL, call_id UUID NOT NULL,
                                  stage "EvidenceStage" NOT NULL)`,
    );
    await client.query('INSERT INTO evidence_key SELECT device_id, seq, call_id, stage FROM evidence');
    await client.query(
      'ALTER TABLE evidence_key ADD CONSTRAINT evidence_device_id_seq_key PRIMARY KEY (device_id, seq)',
    );
    await client.query(
      'ALTER TABLE evidence_key ADD CONSTRAINT evidence_call_id_stage_key UNIQUE (call_id, stage)',
    );
  },

  /**
   * Append-only for every role, as restrict_app_role made the plain table: the row trigger on the partitioned
   * table is cloned onto every partition, present and future. Every INSERT into evidence claims its rows' keys in
   * one statement per INSERT (a transition table), not one per row.
   */
  async addTriggers(client: ClientBase): Promise<void> {
    await client.query(
      `CREATE TRIGGER evidence_append_only BEFORE UPDATE OR DELETE ON evidence
         FOR EACH ROW EXECUTE FUNCTION evidence_append_only()`,
    );
    await client.query(
      `CREATE TRIGGER evidence_append_only_truncate BEFORE TRUNCATE ON evidence
         FOR EACH STATEMENT EXECUTE FUNCTION evidence_append_only()`,
    );
    await client.query(
      `CREATE TRIGGER evidence_key_append_only BEFORE UPDATE OR DELETE ON evidence_key
         FOR EACH ROW EXECUTE FUNCTION evidence_append_only()`,
    );
    await client.query(
      `CREATE TRIGGER evidence_key_append_only_truncate BEFORE TRUNCATE ON evidence_key
         FOR EACH STATEMENT EXECUTE FUNCTION evidence_append_only()`,
    );
    await client.query(
      `CREATE OR REPLACE FUNCTION evidence_key_claim() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         INSERT INTO evidence_key (device_id, seq, call_id, stage)
         SELECT device_id, seq, call_id, stage FROM inserted;
         RETURN NULL;
       END
       $$`,
    );
    await client.query(
      `CREATE TRIGGER evidence_key_claim AFTER INSERT ON evidence REFERENCING NEW TABLE AS inserted
         FOR EACH STATEMENT EXECUTE FUNCTION evidence_key_claim()`,
    );
  },
};
