-- DESIGN §4: pre-flight runs before a person is asked; the approval shows what it found and is bound to the
-- catalog version (and the tool's definition) it was given under.
ALTER TABLE "approval" ADD COLUMN "preflight" JSONB;
ALTER TABLE "approval" ADD COLUMN "catalog_version_id" UUID;
ALTER TABLE "approval" ADD COLUMN "tool_hash" TEXT;
