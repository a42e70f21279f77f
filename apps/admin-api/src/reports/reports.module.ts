import { Module } from '@nestjs/common';
import { AuditExportRepository } from './audit-export.repository';
import { AuditExportService } from './audit-export.service';
import { AuditReportRepository } from './audit-report.repository';
import { AuditReportService } from './audit-report.service';
import { AuditSigner } from './audit-signer';
import { IntegrityRepository } from './integrity.repository';
import { IntegrityService } from './integrity.service';
import { CheckpointComparer } from '../checkpoints/checkpoint-comparer';
import { CheckpointRepository } from '../checkpoints/checkpoint.repository';
import { CheckpointService } from '../checkpoints/checkpoint.service';
import { ReportsController } from './reports.controller';
import { SealKeys } from './seal-keys';
import { UpgradeRegressionsRepository } from './upgrade-regressions.repository';

@Module({
  controllers: [ReportsController],
  providers: [
    AuditReportService,
    AuditReportRepository,
    UpgradeRegressionsRepository,
    AuditExportService,
    AuditExportRepository,
    AuditSigner,
    IntegrityService,
    IntegrityRepository,
    SealKeys,
    CheckpointService,
    CheckpointRepository,
    CheckpointComparer,
  ],
})
export class ReportsModule {}
