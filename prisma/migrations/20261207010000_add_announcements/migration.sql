-- Announcements are calls (tool `platform.announce`). A call may be held back (quiet hours) until `hold_until`;
-- its spoken delivery is written by the voice worker that owns the session it is spoken in.
ALTER TABLE "call" ADD COLUMN "hold_until" TIMESTAMPTZ(3);

ALTER TABLE "device_group" ADD COLUMN "quiet_hours" JSONB;

CREATE TABLE "announcement_delivery" (
    "call_id" UUID NOT NULL,
    "session_id" TEXT NOT NULL,
    "worker_id" TEXT NOT NULL,
    "speaking_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "frames" INTEGER,
    "synthesis_error" TEXT,
    "tts_stopped_at" TIMESTAMPTZ(3),
    "heard" TEXT,
    "heard_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "announcement_delivery_pkey" PRIMARY KEY ("call_id")
);

ALTER TABLE "announcement_delivery" ADD CONSTRAINT "announcement_delivery_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
