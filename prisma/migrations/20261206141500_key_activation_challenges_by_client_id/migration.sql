-- Activation v2 challenges are kept per (MAC, Client-Id), a few per MAC, instead of one per MAC: a check-in that
-- claims a MAC with another Client-Id no longer replaces the real device's outstanding challenge.

-- Two concurrent check-ins of one pair could each have left a row: keep the newest.
DELETE FROM "activation_challenge" a
 USING "activation_challenge" b
 WHERE a."device_id" = b."device_id"
   AND a."client_id_hash" = b."client_id_hash"
   AND (a."created_at", a."challenge") < (b."created_at", b."challenge");

-- DropIndex
DROP INDEX "activation_challenge_device_id_idx";

-- CreateIndex
CREATE UNIQUE INDEX "activation_challenge_device_id_client_id_hash_key" ON "activation_challenge"("device_id", "client_id_hash");
