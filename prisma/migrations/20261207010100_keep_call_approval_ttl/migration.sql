-- A person's approval is opened by the orchestrator once pre-flight has passed the call (DESIGN §4), not by the
-- producer when the call is asked for: the TTL the requester asked for travels with the call until then.
ALTER TABLE "call" ADD COLUMN "approval_ttl_ms" INTEGER;
