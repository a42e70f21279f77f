-- Exemption from schema.prisma (Prisma cannot describe roles, grants or triggers); tested on its own in
-- libs/db/src/migrations/app-role.spec.ts.
--
-- The services connect as fleet_app. Evidence is append-only for it: DESIGN §6 says the database, not the
-- code, enforces that rows of evidence and recorded chain heads are never changed or removed.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fleet_app') THEN
    CREATE ROLE fleet_app LOGIN;
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO fleet_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO fleet_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO fleet_app;
-- Tables added by later migrations get the same rights; an append-only one must revoke them itself.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO fleet_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO fleet_app;

REVOKE UPDATE, DELETE, TRUNCATE ON "evidence", "evidence_chain_head" FROM fleet_app;
-- The migration history belongs to the owner. (A shadow database of `prisma migrate diff` has no such table.)
DO $$
BEGIN
  IF to_regclass('"_prisma_migrations"') IS NOT NULL THEN
    REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON "_prisma_migrations" FROM fleet_app;
  END IF;
END
$$;

-- Defence in depth: even the owner's role cannot change evidence without first disabling this trigger,
-- which itself leaves a trace in the server log and is what an integrity check exists to catch.
CREATE FUNCTION evidence_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'table % is append-only (% refused)', TG_TABLE_NAME, TG_OP;
END
$$;

CREATE TRIGGER evidence_append_only
  BEFORE UPDATE OR DELETE ON "evidence"
  FOR EACH ROW EXECUTE FUNCTION evidence_append_only();
CREATE TRIGGER evidence_append_only_truncate
  BEFORE TRUNCATE ON "evidence"
  FOR EACH STATEMENT EXECUTE FUNCTION evidence_append_only();
CREATE TRIGGER evidence_chain_head_append_only
  BEFORE UPDATE OR DELETE ON "evidence_chain_head"
  FOR EACH ROW EXECUTE FUNCTION evidence_append_only();
CREATE TRIGGER evidence_chain_head_append_only_truncate
  BEFORE TRUNCATE ON "evidence_chain_head"
  FOR EACH STATEMENT EXECUTE FUNCTION evidence_append_only();
