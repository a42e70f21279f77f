-- AlterEnum
ALTER TYPE "EvidenceStage" ADD VALUE 'seal';
