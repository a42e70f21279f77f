-- The application role with a password, before the first migration: the migration
-- 20261130020100_restrict_app_role creates fleet_app without one (local Postgres trusts loopback) and grants it
-- its rights; a server that checks passwords needs the role to have one. Run against the maintenance database by
-- the owner role, with psql:
--
--   psql "$POSTGRES_ADMIN_URL" -v ON_ERROR_STOP=1 -v app_password="$FLEET_APP_PASSWORD" -f app-role.sql
--
-- Idempotent: creates the role when missing and (re)sets its password every time, so rotating FLEET_APP_PASSWORD is
-- a re-run followed by a rollout of the services with the new DATABASE_URL.
SELECT 'CREATE ROLE fleet_app LOGIN'
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fleet_app')
\gexec
ALTER ROLE fleet_app WITH LOGIN PASSWORD :'app_password';
