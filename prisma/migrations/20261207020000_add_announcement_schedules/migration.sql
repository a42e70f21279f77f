-- Scheduled and recurring announcements: each run is a call of its own, made through the announcement gate.
CREATE TYPE "AnnouncementScheduleState" AS ENUM ('active', 'paused', 'cancelled', 'finished');

CREATE TABLE "announcement_schedule" (
    "id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "deadline_s" INTEGER NOT NULL,
    "cron" TEXT,
    "run_at" TIMESTAMPTZ(3),
    "time_zone" TEXT NOT NULL,
    "state" "AnnouncementScheduleState" NOT NULL DEFAULT 'active',
    "next_run_at" TIMESTAMPTZ(3),
    "runs" INTEGER NOT NULL DEFAULT 0,
    "last_call_id" UUID,
    "last_error" TEXT,
    "created_by" UUID NOT NULL,
    "api_key_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "announcement_schedule_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "announcement_schedule_state_next_run_at_idx" ON "announcement_schedule"("state", "next_run_at");

CREATE INDEX "announcement_schedule_device_id_created_at_idx" ON "announcement_schedule"("device_id", "created_at");

ALTER TABLE "announcement_schedule" ADD CONSTRAINT "announcement_schedule_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "announcement_schedule" ADD CONSTRAINT "announcement_schedule_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "operator"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
