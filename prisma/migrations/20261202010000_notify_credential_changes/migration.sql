-- Exemption from schema.prisma (Prisma cannot describe triggers); tested through the admin API in
-- apps/admin-api/src/auth/principal-cache.spec.ts.
--
-- The admin API remembers who an API key or a session belongs to between requests (DESIGN §8: the API at the
-- cost of its framework). A change that could make a remembered answer wrong (a key revoked or re-roled, a
-- session ended, a person disabled, demoted, renamed or given a new password) is announced on the channel
-- `credentials_changed` when its transaction commits, whoever made it (any replica, db:create-admin, a DBA's
-- psql), and every replica forgets what it remembered. Statement triggers: one notice per statement, and only
-- for the columns that matter (recording a key's last use is not one of them).
CREATE FUNCTION notify_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('credentials_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER api_key_credentials_changed
  AFTER UPDATE OF revoked_at, role, secret_hash, operator_id, prefix OR DELETE OR TRUNCATE ON "api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();

CREATE TRIGGER session_credentials_changed
  AFTER UPDATE OF revoked_at, expires_at, operator_id, token_hash OR DELETE OR TRUNCATE ON "session"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();

CREATE TRIGGER operator_credentials_changed
  AFTER UPDATE OF role, disabled_at, email, name, password_hash OR DELETE OR TRUNCATE ON "operator"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();
