-- CreateEnum
CREATE TYPE "IdentityField" AS ENUM ('board', 'chip', 'client_id', 'serial');

-- CreateEnum
CREATE TYPE "IdentitySource" AS ENUM ('check_in', 'proof', 'operator');

-- CreateTable
CREATE TABLE "device_identity_event" (
    "id" BIGSERIAL NOT NULL,
    "device_id" TEXT NOT NULL,
    "field" "IdentityField" NOT NULL,
    "previous" TEXT,
    "current" TEXT,
    "source" "IdentitySource" NOT NULL,
    "boot_report_id" BIGINT,
    "quarantine_id" UUID,
    "operator_id" UUID,
    "details" JSONB,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "device_identity_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "device_serial_key" (
    "serial_number" TEXT NOT NULL,
    "sealed_key" BYTEA NOT NULL,
    "wrapping_key_id" TEXT NOT NULL,
    "imported_by" UUID NOT NULL,
    "imported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "device_serial_key_pkey" PRIMARY KEY ("serial_number")
);

-- CreateTable
CREATE TABLE "activation_challenge" (
    "challenge" TEXT NOT NULL,
    "device_id" TEXT NOT NULL,
    "client_id_hash" TEXT NOT NULL,
    "serial_number" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "activation_challenge_pkey" PRIMARY KEY ("challenge")
);

-- CreateIndex
CREATE INDEX "device_identity_event_device_id_at_idx" ON "device_identity_event"("device_id", "at");

-- CreateIndex
CREATE INDEX "activation_challenge_device_id_idx" ON "activation_challenge"("device_id");

-- CreateIndex
CREATE INDEX "activation_challenge_expires_at_idx" ON "activation_challenge"("expires_at");

-- AddForeignKey
ALTER TABLE "device_identity_event" ADD CONSTRAINT "device_identity_event_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_identity_event" ADD CONSTRAINT "device_identity_event_boot_report_id_fkey" FOREIGN KEY ("boot_report_id") REFERENCES "boot_report"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Identity changes are evidence (DESIGN §3): the application adds them and never rewrites or removes one.
-- Exemption from schema.prisma (grants), tested in apps/broker/src/devices/identity-events.spec.ts.
REVOKE UPDATE, DELETE, TRUNCATE ON "device_identity_event" FROM fleet_app;
