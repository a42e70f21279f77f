-- CreateEnum
CREATE TYPE "DeviceStatus" AS ENUM ('active', 'awaiting_activation', 'revoked', 'decommissioned');

-- CreateEnum
CREATE TYPE "Dialect" AS ENUM ('xiaozhi', 'listenai');

-- CreateEnum
CREATE TYPE "QuarantineState" AS ENUM ('pending', 'accepted', 'rejected');

-- CreateEnum
CREATE TYPE "OrderingSource" AS ENUM ('config', 'derived');

-- CreateEnum
CREATE TYPE "OrderingAction" AS ENUM ('run_first', 'refuse');

-- CreateEnum
CREATE TYPE "CallOrigin" AS ENUM ('operator', 'llm', 'agent', 'campaign', 'system');

-- CreateEnum
CREATE TYPE "CallState" AS ENUM ('queued', 'awaiting_approval', 'waiting_for_device', 'sending', 'sent', 'verifying', 'finished');

-- CreateEnum
CREATE TYPE "Verdict" AS ENUM ('verified', 'acknowledged', 'effect_mismatch', 'device_error', 'no_response', 'undelivered', 'rejected', 'invalid_arguments', 'expired', 'cancelled');

-- CreateEnum
CREATE TYPE "EvidenceStage" AS ENUM ('discovery', 'decision', 'parameters', 'response', 'effect');

-- CreateEnum
CREATE TYPE "ApprovalState" AS ENUM ('pending', 'approved', 'rejected', 'expired');

-- CreateEnum
CREATE TYPE "CampaignState" AS ENUM ('draft', 'awaiting_approval', 'running', 'paused', 'completed', 'aborted', 'cancelled');

-- CreateEnum
CREATE TYPE "CampaignTargetState" AS ENUM ('pending', 'waiting_for_device', 'in_progress', 'verified', 'failed', 'skipped', 'cancelled');

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('viewer', 'operator', 'admin');

-- CreateEnum
CREATE TYPE "DeliveryState" AS ENUM ('pending', 'delivered', 'failed');

-- CreateEnum
CREATE TYPE "VoiceTurnSource" AS ENUM ('text', 'audio');

-- CreateEnum
CREATE TYPE "VoiceTurnState" AS ENUM ('listening', 'thinking', 'calling', 'speaking', 'finished', 'failed');

-- CreateTable
CREATE TABLE "device" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "serial_number" TEXT,
    "dialect" "Dialect" NOT NULL DEFAULT 'xiaozhi',
    "status" "DeviceStatus" NOT NULL DEFAULT 'active',
    "board" TEXT,
    "board_name" TEXT,
    "firmware_version" TEXT,
    "ota_label" TEXT,
    "chip_model" TEXT,
    "online" BOOLEAN NOT NULL DEFAULT false,
    "connection_id" TEXT,
    "last_seen_at" TIMESTAMPTZ(3),
    "last_boot_at" TIMESTAMPTZ(3),
    "last_status" JSONB,
    "last_status_at" TIMESTAMPTZ(3),
    "activation_code" TEXT,
    "activation_challenge" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "device_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "boot_report" (
    "id" BIGSERIAL NOT NULL,
    "device_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "firmware_version" TEXT,
    "board" TEXT,
    "ota_label" TEXT,
    "remote_address" TEXT,
    "user_agent" TEXT,
    "body" JSONB NOT NULL,
    "complaints" JSONB,
    "firmware_offered" JSONB,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "boot_report_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "connection" (
    "id" TEXT NOT NULL,
    "device_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "broker_id" TEXT NOT NULL,
    "remote_address" TEXT,
    "keepalive" INTEGER NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "online_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "close_reason" TEXT,

    CONSTRAINT "connection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "device_quarantine" (
    "id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "claimed_client_id" TEXT NOT NULL,
    "claimed_serial" TEXT,
    "remote_address" TEXT,
    "body" JSONB NOT NULL,
    "state" "QuarantineState" NOT NULL DEFAULT 'pending',
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "device_quarantine_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "device_rpc_sequence" (
    "device_id" TEXT NOT NULL,
    "next_id" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "device_rpc_sequence_pkey" PRIMARY KEY ("device_id")
);

-- CreateTable
CREATE TABLE "malformed_input" (
    "id" BIGSERIAL NOT NULL,
    "device_id" TEXT,
    "connection_id" TEXT,
    "kind" TEXT NOT NULL,
    "error" TEXT NOT NULL,
    "raw" BYTEA NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "malformed_input_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "device_group" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "time_zone" TEXT NOT NULL DEFAULT 'UTC',
    "limits" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "device_group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "device_group_member" (
    "device_id" TEXT NOT NULL,
    "group_id" UUID NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "device_group_member_pkey" PRIMARY KEY ("device_id","group_id")
);

-- CreateTable
CREATE TABLE "device_tag" (
    "device_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,

    CONSTRAINT "device_tag_pkey" PRIMARY KEY ("device_id","tag")
);

-- CreateTable
CREATE TABLE "tool_catalog" (
    "id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "tool_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_catalog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool" (
    "catalog_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "input_schema" JSONB NOT NULL,
    "annotations" JSONB,
    "user_only" BOOLEAN NOT NULL,

    CONSTRAINT "tool_pkey" PRIMARY KEY ("catalog_id","position")
);

-- CreateTable
CREATE TABLE "device_catalog_version" (
    "id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "catalog_id" UUID NOT NULL,
    "server_name" TEXT,
    "server_version" TEXT,
    "protocol_version" TEXT,
    "diff" JSONB,
    "exchanges" JSONB NOT NULL,
    "discovered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_confirmed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "device_catalog_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool_marking" (
    "device_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "sensitive" BOOLEAN NOT NULL,
    "marked_by" UUID NOT NULL,
    "marked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_marking_pkey" PRIMARY KEY ("device_id","tool_name")
);

-- CreateTable
CREATE TABLE "ordering_rule" (
    "id" UUID NOT NULL,
    "source" "OrderingSource" NOT NULL,
    "catalog_id" UUID,
    "tool" TEXT NOT NULL,
    "requires" TEXT NOT NULL,
    "max_age_ms" INTEGER NOT NULL,
    "action" "OrderingAction" NOT NULL,
    "evidence" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ordering_rule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "call" (
    "id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "origin" "CallOrigin" NOT NULL,
    "reason" TEXT,
    "operator_id" UUID,
    "api_key_id" UUID,
    "voice_turn_id" UUID,
    "campaign_id" UUID,
    "agent_id" TEXT,
    "parent_call_id" UUID,
    "catalog_version_id" UUID,
    "idempotency_key" TEXT,
    "state" "CallState" NOT NULL DEFAULT 'queued',
    "verdict" "Verdict",
    "verdict_reason" TEXT,
    "jsonrpc_id" INTEGER,
    "connection_id" TEXT,
    "traceparent" TEXT,
    "deadline_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "sealed_at" TIMESTAMPTZ(3),

    CONSTRAINT "call_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evidence" (
    "id" BIGSERIAL NOT NULL,
    "call_id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "stage" "EvidenceStage" NOT NULL,
    "seq" BIGINT NOT NULL,
    "payload" JSONB NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evidence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evidence_chain_head" (
    "id" BIGSERIAL NOT NULL,
    "device_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evidence_chain_head_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval" (
    "id" UUID NOT NULL,
    "call_id" UUID,
    "campaign_id" UUID,
    "device_id" TEXT,
    "tool" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "arguments_hash" TEXT NOT NULL,
    "requested_by" UUID NOT NULL,
    "state" "ApprovalState" NOT NULL DEFAULT 'pending',
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "reason" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_by" UUID NOT NULL,
    "state" "CampaignState" NOT NULL DEFAULT 'draft',
    "selector" JSONB NOT NULL,
    "action" JSONB NOT NULL,
    "rollout" JSONB NOT NULL,
    "abort_rule" JSONB NOT NULL,
    "windows" JSONB,
    "device_timeout_s" INTEGER NOT NULL,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "skip_in_session" BOOLEAN NOT NULL DEFAULT true,
    "idempotency_key" TEXT,
    "state_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "campaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_target" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "state" "CampaignTargetState" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "call_id" UUID,
    "detail" TEXT,
    "deadline_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "campaign_target_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "firmware" (
    "id" UUID NOT NULL,
    "version" TEXT NOT NULL,
    "project_name" TEXT NOT NULL,
    "chip" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "boards" TEXT[],
    "uploaded_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "firmware_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "firmware_image" (
    "sha256" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "firmware_image_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "firmware_assignment" (
    "device_id" TEXT NOT NULL,
    "firmware_id" UUID NOT NULL,
    "campaign_id" UUID,
    "assigned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "offered_at" TIMESTAMPTZ(3),

    CONSTRAINT "firmware_assignment_pkey" PRIMARY KEY ("device_id")
);

-- CreateTable
CREATE TABLE "operator" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "password_hash" TEXT,
    "oidc_issuer" TEXT,
    "oidc_subject" TEXT,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" UUID NOT NULL,
    "operator_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session" (
    "id" UUID NOT NULL,
    "operator_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_event" (
    "id" BIGSERIAL NOT NULL,
    "operator_id" UUID,
    "api_key_id" UUID,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT,
    "details" JSONB,
    "ip" TEXT,
    "user_agent" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_record" (
    "key" TEXT NOT NULL,
    "operator_id" UUID NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "response_body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_record_pkey" PRIMARY KEY ("operator_id","key")
);

-- CreateTable
CREATE TABLE "webhook" (
    "id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "events" TEXT[],
    "created_by" UUID NOT NULL,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" UUID NOT NULL,
    "webhook_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "state" "DeliveryState" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "voice_turn" (
    "id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "session_id" TEXT,
    "source" "VoiceTurnSource" NOT NULL,
    "state" "VoiceTurnState" NOT NULL DEFAULT 'listening',
    "language" TEXT,
    "transcript_hash" TEXT,
    "tool_calls" JSONB NOT NULL DEFAULT '[]',
    "reply" TEXT,
    "reply_mode" TEXT,
    "timings" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "voice_turn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "voice_transcript" (
    "hash" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "voice_transcript_pkey" PRIMARY KEY ("hash")
);

-- CreateIndex
CREATE INDEX "device_online_id_idx" ON "device"("online", "id");

-- CreateIndex
CREATE INDEX "device_board_id_idx" ON "device"("board", "id");

-- CreateIndex
CREATE INDEX "device_firmware_version_id_idx" ON "device"("firmware_version", "id");

-- CreateIndex
CREATE INDEX "device_status_idx" ON "device"("status");

-- CreateIndex
CREATE INDEX "boot_report_device_id_received_at_idx" ON "boot_report"("device_id", "received_at");

-- CreateIndex
CREATE INDEX "connection_device_id_opened_at_idx" ON "connection"("device_id", "opened_at");

-- CreateIndex
CREATE INDEX "device_quarantine_state_created_at_idx" ON "device_quarantine"("state", "created_at");

-- CreateIndex
CREATE INDEX "device_quarantine_device_id_idx" ON "device_quarantine"("device_id");

-- CreateIndex
CREATE INDEX "malformed_input_device_id_received_at_idx" ON "malformed_input"("device_id", "received_at");

-- CreateIndex
CREATE UNIQUE INDEX "device_group_name_key" ON "device_group"("name");

-- CreateIndex
CREATE INDEX "device_group_member_group_id_device_id_idx" ON "device_group_member"("group_id", "device_id");

-- CreateIndex
CREATE INDEX "device_tag_tag_device_id_idx" ON "device_tag"("tag", "device_id");

-- CreateIndex
CREATE UNIQUE INDEX "tool_catalog_hash_key" ON "tool_catalog"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "tool_catalog_id_name_key" ON "tool"("catalog_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "device_catalog_version_device_id_version_key" ON "device_catalog_version"("device_id", "version");

-- CreateIndex
CREATE INDEX "ordering_rule_tool_idx" ON "ordering_rule"("tool");

-- CreateIndex
CREATE UNIQUE INDEX "ordering_rule_catalog_id_tool_requires_key" ON "ordering_rule"("catalog_id", "tool", "requires");

-- CreateIndex
CREATE UNIQUE INDEX "call_idempotency_key_key" ON "call"("idempotency_key");

-- CreateIndex
CREATE INDEX "call_device_id_created_at_idx" ON "call"("device_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "call_created_at_idx" ON "call"("created_at");

-- CreateIndex
CREATE INDEX "call_verdict_created_at_idx" ON "call"("verdict", "created_at");

-- CreateIndex
CREATE INDEX "call_state_deadline_at_idx" ON "call"("state", "deadline_at");

-- CreateIndex
CREATE INDEX "call_campaign_id_idx" ON "call"("campaign_id");

-- CreateIndex
CREATE INDEX "call_device_id_jsonrpc_id_idx" ON "call"("device_id", "jsonrpc_id");

-- CreateIndex
CREATE INDEX "evidence_created_at_idx" ON "evidence"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "evidence_call_id_stage_key" ON "evidence"("call_id", "stage");

-- CreateIndex
CREATE UNIQUE INDEX "evidence_device_id_seq_key" ON "evidence"("device_id", "seq");

-- CreateIndex
CREATE INDEX "evidence_chain_head_device_id_seq_idx" ON "evidence_chain_head"("device_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "approval_call_id_key" ON "approval"("call_id");

-- CreateIndex
CREATE UNIQUE INDEX "approval_campaign_id_key" ON "approval"("campaign_id");

-- CreateIndex
CREATE INDEX "approval_state_expires_at_idx" ON "approval"("state", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "campaign_idempotency_key_key" ON "campaign"("idempotency_key");

-- CreateIndex
CREATE INDEX "campaign_state_idx" ON "campaign"("state");

-- CreateIndex
CREATE INDEX "campaign_target_campaign_id_state_idx" ON "campaign_target"("campaign_id", "state");

-- CreateIndex
CREATE UNIQUE INDEX "campaign_target_campaign_id_device_id_key" ON "campaign_target"("campaign_id", "device_id");

-- CreateIndex
CREATE UNIQUE INDEX "firmware_sha256_key" ON "firmware"("sha256");

-- CreateIndex
CREATE INDEX "firmware_project_name_version_idx" ON "firmware"("project_name", "version");

-- CreateIndex
CREATE INDEX "firmware_assignment_firmware_id_idx" ON "firmware_assignment"("firmware_id");

-- CreateIndex
CREATE UNIQUE INDEX "operator_email_key" ON "operator"("email");

-- CreateIndex
CREATE UNIQUE INDEX "operator_oidc_issuer_oidc_subject_key" ON "operator"("oidc_issuer", "oidc_subject");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_prefix_key" ON "api_key"("prefix");

-- CreateIndex
CREATE INDEX "api_key_operator_id_idx" ON "api_key"("operator_id");

-- CreateIndex
CREATE UNIQUE INDEX "session_token_hash_key" ON "session"("token_hash");

-- CreateIndex
CREATE INDEX "session_operator_id_idx" ON "session"("operator_id");

-- CreateIndex
CREATE INDEX "audit_event_at_idx" ON "audit_event"("at");

-- CreateIndex
CREATE INDEX "audit_event_operator_id_at_idx" ON "audit_event"("operator_id", "at");

-- CreateIndex
CREATE INDEX "webhook_delivery_state_next_attempt_at_idx" ON "webhook_delivery"("state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "voice_turn_device_id_created_at_idx" ON "voice_turn"("device_id", "created_at");

-- AddForeignKey
ALTER TABLE "boot_report" ADD CONSTRAINT "boot_report_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connection" ADD CONSTRAINT "connection_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_quarantine" ADD CONSTRAINT "device_quarantine_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_rpc_sequence" ADD CONSTRAINT "device_rpc_sequence_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "malformed_input" ADD CONSTRAINT "malformed_input_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_group_member" ADD CONSTRAINT "device_group_member_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_group_member" ADD CONSTRAINT "device_group_member_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "device_group"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_tag" ADD CONSTRAINT "device_tag_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool" ADD CONSTRAINT "tool_catalog_id_fkey" FOREIGN KEY ("catalog_id") REFERENCES "tool_catalog"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_catalog_version" ADD CONSTRAINT "device_catalog_version_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_catalog_version" ADD CONSTRAINT "device_catalog_version_catalog_id_fkey" FOREIGN KEY ("catalog_id") REFERENCES "tool_catalog"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_marking" ADD CONSTRAINT "tool_marking_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ordering_rule" ADD CONSTRAINT "ordering_rule_catalog_id_fkey" FOREIGN KEY ("catalog_id") REFERENCES "tool_catalog"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_catalog_version_id_fkey" FOREIGN KEY ("catalog_version_id") REFERENCES "device_catalog_version"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_parent_call_id_fkey" FOREIGN KEY ("parent_call_id") REFERENCES "call"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operator"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_voice_turn_id_fkey" FOREIGN KEY ("voice_turn_id") REFERENCES "voice_turn"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval" ADD CONSTRAINT "approval_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval" ADD CONSTRAINT "approval_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval" ADD CONSTRAINT "approval_requested_by_fkey" FOREIGN KEY ("requested_by") REFERENCES "operator"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval" ADD CONSTRAINT "approval_decided_by_fkey" FOREIGN KEY ("decided_by") REFERENCES "operator"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "operator"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_target" ADD CONSTRAINT "campaign_target_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_target" ADD CONSTRAINT "campaign_target_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "firmware" ADD CONSTRAINT "firmware_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "firmware_image"("sha256") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "firmware_assignment" ADD CONSTRAINT "firmware_assignment_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "firmware_assignment" ADD CONSTRAINT "firmware_assignment_firmware_id_fkey" FOREIGN KEY ("firmware_id") REFERENCES "firmware"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operator"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session" ADD CONSTRAINT "session_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operator"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_event" ADD CONSTRAINT "audit_event_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operator"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhook"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "voice_turn" ADD CONSTRAINT "voice_turn_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

