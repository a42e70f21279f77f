-- AlterTable
ALTER TABLE "voice_turn" ADD COLUMN     "picked_up_at" TIMESTAMPTZ(3),
ADD COLUMN     "worker_id" TEXT;

-- CreateTable
CREATE TABLE "sign_in_link" (
    "id" UUID NOT NULL,
    "operator_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_link_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sign_in_link_token_hash_key" ON "sign_in_link"("token_hash");

-- CreateIndex
CREATE INDEX "sign_in_link_operator_id_idx" ON "sign_in_link"("operator_id");

-- CreateIndex
CREATE INDEX "connection_broker_id_closed_at_idx" ON "connection"("broker_id", "closed_at");

-- CreateIndex
CREATE INDEX "voice_turn_state_created_at_idx" ON "voice_turn"("state", "created_at");

-- AddForeignKey
ALTER TABLE "sign_in_link" ADD CONSTRAINT "sign_in_link_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operator"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
