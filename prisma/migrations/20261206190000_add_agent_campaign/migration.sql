-- Which agent (an MCP credential: `api_key:<id>`, `oauth_client:<id>`, `operator:<id>`) asked for a campaign through
-- /mcp: the campaign is that agent's task, read and cancelled by it alone. Campaigns made in the console or by REST
-- have no row here.
CREATE TABLE "agent_campaign" (
    "campaign_id" UUID NOT NULL,
    "agent_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_campaign_pkey" PRIMARY KEY ("campaign_id")
);

CREATE INDEX "agent_campaign_agent_id_idx" ON "agent_campaign"("agent_id");
