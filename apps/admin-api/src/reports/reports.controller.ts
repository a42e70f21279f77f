import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { Doc, Roles } from '../http/route-metadata';
import { ValidQuery } from '../http/validation';
import { AuditReportService, LEDGER_COLUMNS } from './audit-report.service';
import { csvStream } from './csv-stream';
import { AuditExportService } from './audit-export.service';
import { AuditSigner } from './audit-signer';
import { IntegrityService, type IntegrityReport } from './integrity.service';
import {
  auditQuery,
  integrityQuery,
  signingKeyView,
  type AuditQuery,
  type CsvSection,
} from './reports.schemas';

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
    private readonly exports: AuditExportService,
    private readonly integrity: IntegrityService,
    private readonly signer: AuditSigner,
  ) {}

  @Get('audit')
  @Roles('viewer')
  @Doc({
    summary:
      'The audit report for a period: JSON signed by the platform (Ed25519) with the chain heads it covers, or CSV (streamed: any period size; not signed)',
    description:
      'With `evidence=rows` the JSON carries every chain link and sealed call behind the heads, so that `npm run audit:verify -- <file>` checks it offline.',
    produces: ['application/json', 'text/csv'],
  })
  async auditReport(@ValidQuery(auditQuery) q: AuditQuery, @Res() reply: FastifyReply): Promise<void> {
    if (q.format === 'json') {
      await reply.send(await this.exports.build(q, q.evidence === 'rows'));
      return;
    }
    const name = `audit-${q.section}-${q.from.toISOString().slice(0, 10)}-${q.to.toISOString().slice(0, 10)}.csv`;
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(csvStream(SECTION_COLUMNS[q.section], this.audit.csvRows(q.section, q)));
  }

  @Get('audit/signing-key')
  @Roles('public')
  @Doc({
    summary: 'The public key that audit exports are signed with (give it to auditors out of band)',
    response: { status: 200, schema: signingKeyView },
  })
  signingKey(): z.infer<typeof signingKeyView> {
    return this.signer.publicKey;
  }

  @Get('integrity')
  @Roles('viewer')
  @Doc({
    summary:
      "Re-check every device's evidence hash chain and every sealed call against its seal; names the first broken row of each chain, and each call and field that differ",
  })
  check(@ValidQuery(integrityQuery) q: z.infer<typeof integrityQuery>): Promise<IntegrityReport> {
    return this.integrity.check(q.deviceId);
  }
}
