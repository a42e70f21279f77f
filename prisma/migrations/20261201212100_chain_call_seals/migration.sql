-- Exemption from schema.prisma (Prisma cannot describe triggers, grants or a backfill); tested on its own in
-- libs/db/src/migrations/sealed-calls.spec.ts.
--
-- DESIGN §6: a call's seal (verdict, reason, sealed time) is a link of its device's evidence chain (stage
-- 'seal', added by the migration before this one, which had to commit before the value can be used), no role
-- may change a sealed call, and audit events are insert-only.

-- 1. A sealed call is final: nothing on its row may change, for any role (the owner included), and it may not
-- be deleted. Nothing in the platform changes a call once it has a verdict; an ON DELETE SET NULL from a row a
-- sealed call names (its operator, campaign, voice turn, catalog version, parent call) is refused too, since it
-- would rewrite the call: such rows are disabled, never deleted. A superuser who disables this trigger and edits
-- a sealed call is named by the integrity check, which compares every sealed call with its seal in the chain.
CREATE FUNCTION call_sealed_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'call % is sealed (verdict %): its row is final (% refused)', OLD.id, OLD.verdict, TG_OP
    USING ERRCODE = 'integrity_constraint_violation';
END
$$;

CREATE TRIGGER call_sealed_is_final
  BEFORE UPDATE OR DELETE ON "call"
  FOR EACH ROW WHEN (OLD.verdict IS NOT NULL) EXECUTE FUNCTION call_sealed_is_final();

-- 2. Audit events are insert-only: no UPDATE, DELETE or TRUNCATE for the application's role, and the append-only
-- trigger of evidence for everyone.
REVOKE UPDATE, DELETE, TRUNCATE ON "audit_event" FROM fleet_app;
CREATE TRIGGER audit_event_append_only
  BEFORE UPDATE OR DELETE ON "audit_event"
  FOR EACH ROW EXECUTE FUNCTION evidence_append_only();
CREATE TRIGGER audit_event_append_only_truncate
  BEFORE TRUNCATE ON "audit_event"
  FOR EACH STATEMENT EXECUTE FUNCTION evidence_append_only();

-- 3. Calls sealed before seals were chained get their seal now, so the integrity check holds on old data too
-- (backfilled rather than a second chain version: one rule for every call, and the old verdicts are then as
-- protected as new ones). Evidence is append-only, so the seals cannot go in between the rows already chained:
-- each device's old seals are appended after its current head, in the order the calls were sealed. Each hash is
-- what libs/domain evidenceHash computes for the row (canonical JSON: keys sorted, no spaces, strings as JSON
-- escapes them), checked by the migration's test. The lock keeps any writer from extending a chain meanwhile; one
-- that chained onto a head it had cached meets the seal's seq in the unique index and chains again after it.
LOCK TABLE "evidence" IN EXCLUSIVE MODE;

DO $$
DECLARE
  c record;
  device text := NULL;
  head_seq bigint;
  head_hash text;
  at timestamptz := date_trunc('milliseconds', clock_timestamp());
  at_iso text;
  sealed_iso text;
  content text;
  link_hash text;
BEGIN
  at_iso := to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  FOR c IN
    SELECT k.id::text AS id, k.device_id, k.verdict::text AS verdict, k.verdict_reason, k.sealed_at
      FROM "call" k
     WHERE k.verdict IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM "evidence" s WHERE s.call_id = k.id AND s.stage = 'seal')
     ORDER BY k.device_id, coalesce(k.sealed_at, k.created_at), k.id
  LOOP
    IF device IS DISTINCT FROM c.device_id THEN
      device := c.device_id;
      SELECT e.seq, e.hash INTO head_seq, head_hash
        FROM "evidence" e WHERE e.device_id = c.device_id ORDER BY e.seq DESC LIMIT 1;
      IF NOT FOUND THEN
        head_seq := 0;
        head_hash := repeat('0', 64);
      END IF;
    END IF;
    head_seq := head_seq + 1;
    sealed_iso := to_char(c.sealed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
    content := '{"callId":' || to_json(c.id)::text
      || ',"createdAt":' || to_json(at_iso)::text
      || ',"deviceId":' || to_json(c.device_id)::text
      || ',"payload":{"reason":' || coalesce(to_json(c.verdict_reason)::text, 'null')
      || ',"sealedAt":' || coalesce(to_json(sealed_iso)::text, 'null')
      || ',"verdict":' || to_json(c.verdict)::text
      || '},"seq":' || to_json(head_seq::text)::text
      || ',"stage":"seal"}';
    link_hash := encode(sha256(convert_to(head_hash || E'\n' || content, 'UTF8')), 'hex');
    INSERT INTO "evidence" (call_id, device_id, stage, seq, payload, prev_hash, hash, created_at)
    VALUES (c.id::uuid, c.device_id, 'seal', head_seq,
            jsonb_build_object('verdict', c.verdict, 'reason', c.verdict_reason, 'sealedAt', sealed_iso),
            head_hash, link_hash, at);
    head_hash := link_hash;
  END LOOP;
END
$$;

-- 4. A call becomes sealed only together with its seal: when an UPDATE gives a call its verdict, the transaction
-- commits only if the call's chain holds a seal that says the same verdict, reason and sealed time (checked at
-- commit: the orchestrator's batch writes the call row first and its evidence rows last). So no code path, and no
-- replica left on an older version during an upgrade, can seal a call that the integrity check would then find
-- without a seal. (A call inserted already sealed, as test fixtures do, is not covered: the check names those.)
CREATE FUNCTION call_sealed_with_seal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "evidence" s
     WHERE s.call_id = NEW.id AND s.stage = 'seal' AND s.device_id = NEW.device_id
       AND s.payload->>'verdict' = NEW.verdict::text
       AND s.payload->>'reason' IS NOT DISTINCT FROM NEW.verdict_reason
       AND s.payload->>'sealedAt' IS NOT DISTINCT FROM
           to_char(NEW.sealed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  ) THEN
    RAISE EXCEPTION 'call % was given a verdict without its seal in the evidence chain', NEW.id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER call_sealed_with_seal
  AFTER UPDATE OF verdict ON "call" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.verdict IS NULL AND NEW.verdict IS NOT NULL) EXECUTE FUNCTION call_sealed_with_seal();
