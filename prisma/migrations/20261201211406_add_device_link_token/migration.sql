-- CreateTable
CREATE TABLE "device_link_token" (
    "id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "issued_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "device_link_token_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "device_link_token_prefix_key" ON "device_link_token"("prefix");

-- CreateIndex
CREATE INDEX "device_link_token_device_id_idx" ON "device_link_token"("device_id");

-- CreateIndex
CREATE INDEX "device_dialect_id_idx" ON "device"("dialect", "id");

-- AddForeignKey
ALTER TABLE "device_link_token" ADD CONSTRAINT "device_link_token_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_link_token" ADD CONSTRAINT "device_link_token_issued_by_fkey" FOREIGN KEY ("issued_by") REFERENCES "operator"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
