-- Exemption from schema.prisma (Prisma has no column compression): the JSON columns whose values outgrow a page's
-- share (about 2 KB, where Postgres starts compressing) are compressed with lz4 instead of the default pglz. A
-- device's first discovery stores its exchanges, the raw replies of initialize and every tools/list page in
-- base64, about 28 KB (docs/BENCHMARKS.md §20); with lz4 Postgres spent a quarter to a third less CPU on that
-- insert and kept it in about half the bytes. Applies to values written from now on. A server built without lz4
-- keeps pglz: the columns work the same either way.
DO $$
DECLARE
  target RECORD;
  part REGCLASS;
BEGIN
  FOR target IN
    SELECT * FROM (VALUES
      ('device_catalog_version', 'exchanges'), ('device_catalog_version', 'diff'), ('tool', 'input_schema'),
      ('evidence', 'payload'), ('call', 'result'), ('boot_report', 'body'), ('device_quarantine', 'body'),
      ('activation_challenge', 'body'), ('audit_event', 'details'), ('idempotency_record', 'response_body'),
      ('webhook_delivery', 'payload')
    ) AS t (tbl, col)
  LOOP
    EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET COMPRESSION lz4', target.tbl, target.col);
    -- A table already partitioned (evidence, by db:partition-evidence) keeps its partitions' own setting.
    FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = target.tbl::regclass LOOP
      EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET COMPRESSION lz4', part, target.col);
    END LOOP;
  END LOOP;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'this server has no lz4: large JSON stays compressed with pglz';
END
$$;
