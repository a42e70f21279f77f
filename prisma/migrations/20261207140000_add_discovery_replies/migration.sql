-- DESIGN §3: a discovery's exchanges (initialize, every tools/list page) are recorded with the catalog version they
-- produced. Their replies are kept here once per content, byte for byte, and the exchanges name them by hash: a
-- fleet's devices of one build send the same bytes at their first discovery (their JSON-RPC ids start alike), and
-- storing those bytes with every device cost Postgres 0.7-1 ms of CPU per device (docs/BENCHMARKS.md §20).
CREATE TABLE "discovery_reply" (
    "sha256" TEXT NOT NULL,
    "raw" BYTEA NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "discovery_reply_pkey" PRIMARY KEY ("sha256")
);

-- Exemptions from schema.prisma (Prisma has no CHECK constraints, grants or column compression): a row is named by
-- its bytes' hash, so no role may store bytes under another hash, and the services may neither change nor remove
-- one. Replies are tools/list pages of up to a few KB each: compressed as the other large values are.
ALTER TABLE "discovery_reply" ADD CONSTRAINT "discovery_reply_named_by_hash"
  CHECK ("sha256" = encode(sha256("raw"), 'hex'));
REVOKE UPDATE, DELETE, TRUNCATE ON "discovery_reply" FROM fleet_app;
DO $$
BEGIN
  ALTER TABLE "discovery_reply" ALTER COLUMN "raw" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'this server has no lz4: discovery replies stay compressed with pglz';
END
$$;
