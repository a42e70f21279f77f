-- Takeovers (a device's connection closed because a newer connection of the same device took over) are read for
-- the last hour and day, per device on its page and fleet-wide for admin_api_devices_taken_over_often.

-- CreateIndex
CREATE INDEX "connection_close_reason_closed_at_idx" ON "connection"("close_reason", "closed_at");
