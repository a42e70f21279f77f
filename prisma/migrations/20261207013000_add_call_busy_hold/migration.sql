-- The busy lock: a reboot or an upgrade held while its device is in a voice session. held_since lets any replica
-- say how long the call waited; an operator's override (who, why, when) lets it go during the conversation.
CREATE TABLE "call_busy_hold" (
    "call_id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "held_since" TIMESTAMPTZ(3),
    "overridden_by" UUID,
    "override_reason" TEXT,
    "overridden_at" TIMESTAMPTZ(3),

    CONSTRAINT "call_busy_hold_pkey" PRIMARY KEY ("call_id")
);

CREATE INDEX "call_busy_hold_device_id_idx" ON "call_busy_hold"("device_id");
