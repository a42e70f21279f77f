-- docs/BENCHMARKS.md §11: a call's row moves to `sending`, maybe `sent`, then `finished`. Each move that changes an
-- indexed column (or finds no room on its page) writes a new entry into every index of the table: eight, then.
-- `state` was indexed only for the sweep, which asks for the unfinished calls of its partitions (verdict IS NULL:
-- a call without a verdict is unfinished in every state), and `jsonrpc_id` for a lookup nothing makes. Indexed by
-- (partition, verdict) instead, and with room left on each page, `sending` and `sent` change no indexed column and
-- can stay on their page (a HOT update: no index entry at all); only the seal, which sets the verdict, touches
-- the indexes.
DROP INDEX "call_partition_state_idx";
DROP INDEX "call_device_id_jsonrpc_id_idx";
CREATE INDEX "call_partition_verdict_idx" ON "call"("partition", "verdict");

-- Exemption from schema.prisma (Prisma has no storage parameters): a quarter of each page left free for the
-- row's later versions. Applies to pages written from now on.
ALTER TABLE "call" SET (fillfactor = 75);
