-- A seal link carries the orchestrator's Ed25519 signature over its hash and the id of the key that made it
-- (DESIGN §6: fleet_app may insert links, so a chain alone proves order, not who wrote it). The key itself is never
-- in the database; the integrity check and the offline verifier accept a seal only under a key the deployment
-- lists. Only seal links carry one.
ALTER TABLE "evidence" ADD COLUMN "seal_key_id" TEXT, ADD COLUMN "seal_signature" TEXT;
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_signature_only_on_seals"
  CHECK ("stage" = 'seal' OR ("seal_key_id" IS NULL AND "seal_signature" IS NULL));
