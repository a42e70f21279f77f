-- A tool's outputSchema as the device declared it (MCP 2025-06-18), kept per catalog like its inputSchema: the
-- structured result an agent is given is validated against it.
ALTER TABLE "tool" ADD COLUMN "output_schema" JSONB;
