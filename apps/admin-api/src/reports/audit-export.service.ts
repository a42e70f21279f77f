import { Inject, Injectable } from '@nestjs/common';
import {
  AUDIT_EXPORT_FORMAT,
  type AuditExport,
  type ExportCall,
  type ExportChain,
  type ExportLink,
  transparencyFor,
} from '@fleet/audit-export';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../config';
import { ApiError } from '../http/api-error';
import { AuditExportRepository, type CoveredChain, type ExportSnapshot } from './audit-export.repository';
import type { Period } from './audit-report.repository';
import { AuditReportService } from './audit-report.service';
import { AuditSigner } from './audit-signer';
import { SealKeys } from './seal-keys';
import { CheckpointService } from '../checkpoints/checkpoint.service';

/**
 * DESIGN §6: the JSON audit report as a signed export. Always with the chain heads it covers (for each device with
 * a call in the period: its stretch of chain from the first link of those calls to the last, and that last link's
 * hash); with `rows`, every link of those stretches and the sealed fields of every call with a link in them, so
 * an auditor recomputes every hash offline (`npm run audit:verify`).
 */
@Injectable()
export class AuditExportService {
  constructor(
    private readonly report: AuditReportService,
    private readonly evidence: AuditExportRepository,
    private readonly signer: AuditSigner,
    private readonly checkpoints: CheckpointService,
    private readonly sealKeys: SealKeys,
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
  ) {}

  async build(p: Period, withRows: boolean): Promise<AuditExport> {
    const [report, evidence] = await Promise.all([
      this.report.json(p),
      this.evidence.inSnapshot((snapshot) => this.chains(snapshot, p, withRows)),
    ]);
    // After the snapshot: every seal it read is committed, so the checkpoint made now holds it.
    const published = await this.checkpoints.publish();
    const transparency = transparencyFor(
      published.log,
      published,
      published.previous,
      evidence.chains,
      this.sealKeys.ring.keys,
    );
    // As JSON carries it (dates as ISO text): what is signed is byte for byte what the auditor receives.
    const body = JSON.parse(
      JSON.stringify({
        ...report,
        format: AUDIT_EXPORT_FORMAT,
        generatedAt: new Date(),
        evidence,
        transparency,
      }),
    ) as Parameters<AuditSigner['sign']>[0];
    return this.signer.sign(body);
  }

  private async chains(snapshot: ExportSnapshot, p: Period, withRows: boolean) {
    const covered = await snapshot.coveredChains(p);
    if (!withRows) return { rows: false, chains: covered.map((c) => chainOf(c)) };
    const total = covered.reduce((n, c) => n + Number(BigInt(c.headSeq) - BigInt(c.fromSeq) + 1n), 0);
    if (total > this.config.AUDIT_EXPORT_MAX_LINKS) {
      throw new ApiError(
        422,
        'export_too_large',
        `the period covers ${total} chain links; one export carries at most ${this.config.AUDIT_EXPORT_MAX_LINKS} (AUDIT_EXPORT_MAX_LINKS): export a shorter period`,
        [{ field: 'query.from', message: 'covers too many chain links for one export' }],
      );
    }
    const links = await snapshot.links(covered);
    const byDevice = new Map<string, ExportLink[]>();
    for (const l of links) {
      const list = byDevice.get(l.deviceId) ?? [];
      list.push({
        seq: l.seq,
        callId: l.callId,
        stage: l.stage,
        payload: l.payload,
        prevHash: l.prevHash,
        hash: l.hash,
        createdAt: l.createdAt.toISOString(),
        ...(l.sealKeyId === null ? {} : { sealKeyId: l.sealKeyId }),
        ...(l.sealSignature === null ? {} : { sealSignature: l.sealSignature }),
      });
      byDevice.set(l.deviceId, list);
    }
    const calls: ExportCall[] = (await snapshot.calls([...new Set(links.map((l) => l.callId))])).map((c) => ({
      callId: c.callId,
      deviceId: c.deviceId,
      createdAt: c.createdAt.toISOString(),
      verdict: c.verdict,
      reason: c.reason,
      sealedAt: c.sealedAt?.toISOString() ?? null,
    }));
    return { rows: true, chains: covered.map((c) => chainOf(c, byDevice.get(c.deviceId) ?? [])), calls };
  }
}

function chainOf(c: CoveredChain, links?: ExportLink[]): ExportChain {
  return {
    deviceId: c.deviceId,
    fromSeq: c.fromSeq,
    prevHash: c.prevHash,
    head: { seq: c.headSeq, hash: c.headHash },
    ...(links ? { links } : {}),
  };
}
