-- DESIGN §5: a device that later reports an older version than a verified upgrade reached. Evidence linked to
-- that upgrade call; the call's sealed verdict stays as it was. One row per upgrade (its first regression).

-- CreateEnum
CREATE TYPE "VersionReportSource" AS ENUM ('check_in');

-- CreateTable
CREATE TABLE "upgrade_regression" (
    "id" BIGSERIAL NOT NULL,
    "call_id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "reached_version" TEXT NOT NULL,
    "reported_version" TEXT NOT NULL,
    "reported_ota_label" TEXT,
    "source" "VersionReportSource" NOT NULL,
    "boot_report_id" BIGINT,
    "detected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upgrade_regression_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "upgrade_regression_call_id_key" ON "upgrade_regression"("call_id");

-- CreateIndex
CREATE INDEX "upgrade_regression_device_id_detected_at_idx" ON "upgrade_regression"("device_id", "detected_at");

-- CreateIndex
CREATE INDEX "upgrade_regression_detected_at_idx" ON "upgrade_regression"("detected_at");

-- AddForeignKey
ALTER TABLE "upgrade_regression" ADD CONSTRAINT "upgrade_regression_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "upgrade_regression" ADD CONSTRAINT "upgrade_regression_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "upgrade_regression" ADD CONSTRAINT "upgrade_regression_boot_report_id_fkey" FOREIGN KEY ("boot_report_id") REFERENCES "boot_report"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Append-only, as evidence is (DESIGN §6).
REVOKE UPDATE, DELETE, TRUNCATE ON "upgrade_regression" FROM fleet_app;
