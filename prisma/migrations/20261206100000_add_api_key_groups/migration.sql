-- An API key (an agent's) may be bounded to device groups: it lists, reads and calls only their devices.
-- `group_scoped` keeps a key bounded when its groups are deleted (it then reaches nothing, never everything).
ALTER TABLE "api_key" ADD COLUMN "group_scoped" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "api_key_group" (
    "api_key_id" UUID NOT NULL,
    "group_id" UUID NOT NULL,

    CONSTRAINT "api_key_group_pkey" PRIMARY KEY ("api_key_id","group_id")
);

CREATE INDEX "api_key_group_group_id_idx" ON "api_key_group"("group_id");

ALTER TABLE "api_key_group" ADD CONSTRAINT "api_key_group_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "api_key_group" ADD CONSTRAINT "api_key_group_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "device_group"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Exemption from schema.prisma (a trigger), as for api_key itself (notify_credential_changes): the admin API
-- remembers a key's groups with the key, so a change to them makes every replica forget what it remembered.
CREATE TRIGGER api_key_group_credentials_changed
  AFTER UPDATE OR DELETE OR TRUNCATE ON "api_key_group"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();
