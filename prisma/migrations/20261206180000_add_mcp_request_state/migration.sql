-- A requestState /mcp handed an agent (MCP 2026-07-28 MRTR) is used at most once: its nonce is recorded when it
-- is consumed, and a second use finds it here. Rows past their expiry may be pruned; a state past its expiry is
-- refused by its signature's expiry before this table is read.
CREATE TABLE "mcp_request_state" (
    "nonce" TEXT NOT NULL,
    "call_id" UUID NOT NULL,
    "agent_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_request_state_pkey" PRIMARY KEY ("nonce")
);

CREATE INDEX "mcp_request_state_expires_at_idx" ON "mcp_request_state"("expires_at");
