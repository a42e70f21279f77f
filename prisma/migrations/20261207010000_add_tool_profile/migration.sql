-- Tool profiles: what a tool is (read, action, sensitive, needs confirmation), which reader proves a setter's
-- effect and what counts as done, per device model and catalog content rather than per device (DESIGN §4, §5).
-- They replace the orchestrator's start-time MODEL_READBACKS list; proposals are pairings the platform saw in a
-- catalog, applied only when a person accepts one.
CREATE TYPE "ToolKind" AS ENUM ('read', 'action', 'sensitive', 'needs_confirmation');
CREATE TYPE "DoneWhen" AS ENUM ('verified', 'verified_or_acknowledged');
CREATE TYPE "ProposalState" AS ENUM ('pending', 'accepted', 'rejected');

CREATE TABLE "tool_profile" (
    "id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "catalog_hash" TEXT NOT NULL DEFAULT '',
    "tool_name" TEXT NOT NULL,
    "kind" "ToolKind" NOT NULL,
    "readback" JSONB,
    "capability" JSONB,
    "done_when" "DoneWhen" NOT NULL DEFAULT 'verified',
    "updated_by" UUID NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_profile_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "tool_profile_model_catalog_hash_tool_name_key" ON "tool_profile"("model", "catalog_hash", "tool_name");
CREATE INDEX "tool_profile_tool_name_idx" ON "tool_profile"("tool_name");

CREATE TABLE "tool_profile_proposal" (
    "id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "catalog_hash" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "argument" TEXT NOT NULL,
    "value" JSONB,
    "reader_tool" TEXT NOT NULL,
    "path" TEXT NOT NULL DEFAULT '',
    "why" TEXT NOT NULL,
    "state" "ProposalState" NOT NULL DEFAULT 'pending',
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_profile_proposal_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "tool_profile_proposal_model_catalog_hash_tool_name_reader_tool_argument_key" ON "tool_profile_proposal"("model", "catalog_hash", "tool_name", "reader_tool", "argument");
CREATE INDEX "tool_profile_proposal_state_idx" ON "tool_profile_proposal"("state");
