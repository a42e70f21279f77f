-- AlterTable
ALTER TABLE "call" ADD COLUMN     "request_context" JSONB;
