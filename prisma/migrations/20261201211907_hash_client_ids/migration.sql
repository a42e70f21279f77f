-- DESIGN §3: the Client-Id is a device secret, stored hashed: SHA-256 (hex) of the lower-cased UUID, exactly
-- what hashClientId in @fleet/protocol computes. A value that already is such a hash is left as it is.
UPDATE "device" SET "client_id" = encode(sha256(convert_to(lower("client_id"), 'UTF8')), 'hex')
 WHERE "client_id" !~ '^[0-9a-f]{64}$';
UPDATE "boot_report" SET "client_id" = encode(sha256(convert_to(lower("client_id"), 'UTF8')), 'hex')
 WHERE "client_id" !~ '^[0-9a-f]{64}$';
UPDATE "device_quarantine"
   SET "claimed_client_id" = encode(sha256(convert_to(lower("claimed_client_id"), 'UTF8')), 'hex')
 WHERE "claimed_client_id" !~ '^[0-9a-f]{64}$';

-- A connection kept the whole MQTT client id (GID_<board>@@@<mac_>@@@<uuid>): now the hash of its uuid part.
UPDATE "connection"
   SET "client_id" = encode(sha256(convert_to(lower(
         coalesce(substring("client_id" from '^[^@]*@@@[^@]*@@@(.*)$'), "client_id")), 'UTF8')), 'hex')
 WHERE "client_id" !~ '^[0-9a-f]{64}$';

-- The system-info bodies kept with a check-in repeat the Client-Id as `uuid` (xiaozhi §4.2).
UPDATE "boot_report"
   SET "body" = jsonb_set("body", '{uuid}',
         to_jsonb('sha256:' || encode(sha256(convert_to(lower("body"->>'uuid'), 'UTF8')), 'hex')))
 WHERE jsonb_typeof("body") = 'object' AND jsonb_typeof("body"->'uuid') = 'string'
   AND "body"->>'uuid' NOT LIKE 'sha256:%';
UPDATE "device_quarantine"
   SET "body" = jsonb_set("body", '{uuid}',
         to_jsonb('sha256:' || encode(sha256(convert_to(lower("body"->>'uuid'), 'UTF8')), 'hex')))
 WHERE jsonb_typeof("body") = 'object' AND jsonb_typeof("body"->'uuid') = 'string'
   AND "body"->>'uuid' NOT LIKE 'sha256:%';

-- The MQTT client id the last OTA answer issued, hashed too: the only one the broker accepts from then on.
ALTER TABLE "device" ADD COLUMN "mqtt_client_id_hash" TEXT;
