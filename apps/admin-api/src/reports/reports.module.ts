import { Module } from '@nestjs/common';
import { AuditReportRepository } from './audit-report.repository';
import { AuditReportService } from './audit-report.service';
import { IntegrityRepository } from './integrity.repository';
import { IntegrityService } from './integrity.service';
import { ReportsController } from './reports.controller';

@Module({
  controllers: [ReportsController],
  providers: [AuditReportService, AuditReportRepository, IntegrityService, IntegrityRepository],
})
export class ReportsModule {}
