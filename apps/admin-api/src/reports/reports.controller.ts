import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { Doc, Roles } from '../http/route-metadata';
import { ValidQuery } from '../http/validation';
import { AuditReportService, LEDGER_COLUMNS } from './audit-report.service';
import { csvStream } from './csv-stream';
import { IntegrityService, type IntegrityReport } from './integrity.service';
import { auditQuery, integrityQuery, type AuditQuery, type CsvSection } from './reports.schemas';

const SECTION_COLUMNS: Record<CsvSection, readonly string[]> = {
  calls: LEDGER_COLUMNS,
  approvals: [
    'id',
    'callId',
    'campaignId',
    'deviceId',
    'tool',
    'state',
    'requestedBy',
    'requestedAt',
    'decidedBy',
    'decidedAt',
    'reason',
    'expiresAt',
  ],
  campaigns: [
    'id',
    'name',
    'state',
    'createdBy',
    'createdAt',
    'startedAt',
    'finishedAt',
    'stateReason',
    'action',
    'targets',
  ],
  summary: ['measure', 'key', 'value'],
};

@Controller('reports')
export class ReportsController {
  constructor(
    private readonly audit: AuditReportService,
    private readonly integrity: IntegrityService,
  ) {}

  @Get('audit')
  @Roles('viewer')
  @Doc({
    summary: 'The audit report for a period, as JSON or as CSV (streamed: any period size)',
    produces: ['application/json', 'text/csv'],
  })
  async auditReport(@ValidQuery(auditQuery) q: AuditQuery, @Res() reply: FastifyReply): Promise<void> {
    if (q.format === 'json') {
      await reply.send(await this.audit.json(q));
      return;
    }
    const name = `audit-${q.section}-${q.from.toISOString().slice(0, 10)}-${q.to.toISOString().slice(0, 10)}.csv`;
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(csvStream(SECTION_COLUMNS[q.section], this.audit.csvRows(q.section, q)));
  }

  @Get('integrity')
  @Roles('viewer')
  @Doc({ summary: "Re-check every device's evidence hash chain; names the first broken row of each" })
  check(@ValidQuery(integrityQuery) q: z.infer<typeof integrityQuery>): Promise<IntegrityReport> {
    return this.integrity.check(q.deviceId);
  }
}
