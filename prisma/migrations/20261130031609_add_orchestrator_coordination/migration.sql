-- DropIndex
DROP INDEX "call_state_deadline_at_idx";

-- AlterTable
ALTER TABLE "device" ADD COLUMN     "catalog_version_id" UUID;

-- AlterTable
ALTER TABLE "call" ADD COLUMN     "cancel_reason" TEXT,
ADD COLUMN     "cancelled_by" UUID,
ADD COLUMN     "effect_deadline_at" TIMESTAMPTZ(3),
ADD COLUMN     "partition" SMALLINT NOT NULL,
ADD COLUMN     "reply_timeout_ms" INTEGER NOT NULL DEFAULT 10000,
ADD COLUMN     "result" JSONB;

-- CreateTable
CREATE TABLE "service_lease" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "token" BIGINT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "service_lease_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "service_instance" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "service_instance_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "service_instance_kind_heartbeat_at_idx" ON "service_instance"("kind", "heartbeat_at");

-- CreateIndex
CREATE INDEX "call_partition_state_idx" ON "call"("partition", "state");

-- AddForeignKey
ALTER TABLE "device" ADD CONSTRAINT "device_catalog_version_id_fkey" FOREIGN KEY ("catalog_version_id") REFERENCES "device_catalog_version"("id") ON DELETE SET NULL ON UPDATE CASCADE;
