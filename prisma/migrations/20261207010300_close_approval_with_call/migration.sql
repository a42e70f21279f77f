-- Exemption from schema.prisma (Prisma cannot describe triggers); tested in
-- tools/e2e/test/preflight-refusals.spec.ts (a call expired and one cancelled while their approvals waited).
--
-- DESIGN §4: an approval always follows its call. When a call is sealed while its approval still waits, the
-- approval is closed in the same statement: `expired` when the call expired, `cancelled` when an operator
-- cancelled it, `void` for any other seal (refused at send time, undelivered). Nobody is then shown, or can
-- approve, a request whose call is over; whoever seals a call need not remember its approval.
CREATE FUNCTION approval_follows_call() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "approval"
     SET state = (CASE NEW.verdict WHEN 'expired' THEN 'expired' WHEN 'cancelled' THEN 'cancelled' ELSE 'void' END)::"ApprovalState",
         decided_at = coalesce(decided_at, NEW.sealed_at),
         reason = coalesce(reason, NEW.verdict_reason)
   WHERE call_id = NEW.id AND state = 'pending';
  RETURN NULL;
END
$$;

-- Only a call with a named requester can have an approval of its own (a campaign's approval is the campaign's):
-- every other seal (the voice assistant's, the platform's, a campaign's) skips the trigger.
CREATE TRIGGER approval_follows_call
  AFTER UPDATE OF verdict ON "call"
  FOR EACH ROW WHEN (OLD.verdict IS NULL AND NEW.verdict IS NOT NULL AND OLD.operator_id IS NOT NULL)
  EXECUTE FUNCTION approval_follows_call();
