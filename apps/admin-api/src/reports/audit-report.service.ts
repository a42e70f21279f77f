import { Injectable } from '@nestjs/common';
import { EVIDENCE_STAGES } from '@fleet/domain';
import { AuditReportRepository, type LedgerRow, type Period } from './audit-report.repository';
import type { CsvSection } from './reports.schemas';
import { UpgradeRegressionsRepository, type RegressionLine } from './upgrade-regressions.repository';

/** Lists in the JSON report stop here (with `truncated`); the CSV has no limit. */
const JSON_LIST_LIMIT = 1_000;
const LEDGER_PAGE = 1_000;

export const LEDGER_COLUMNS = [
  'call_id',
  'created_at',
  'sealed_at',
  'device_id',
  'dialect',
  'tool',
  'origin',
  'operator',
  'api_key_id',
  'campaign_id',
  'voice_turn_id',
  'reason',
  'state',
  'verdict',
  'verdict_reason',
  'effect_verified',
  'approval_state',
  'approved_by',
  'approved_at',
  'evidence_rows',
  'evidence_missing',
  // The call's seal link in its device's chain: the line is the one the signed JSON export vouches for.
  'seal_hash',
  // DESIGN §5: a verified upgrade the device later came back from on an older version (the verdict stays).
  'rolled_back_later',
] as const;

/**
 * The audit report for a period: calls by verdict, tool, origin and operator; approvals with who and when;
 * campaigns; calls whose effect was not verified; evidence completeness. JSON for screens, CSV for auditors.
 */
@Injectable()
export class AuditReportService {
  constructor(
    private readonly report: AuditReportRepository,
    private readonly regressions: UpgradeRegressionsRepository,
  ) {}

  async json(p: Period) {
    const [calls, approvals, campaigns, unverified, incomplete, sealed, regressions] = await Promise.all([
      this.report.callCounts(p),
      this.report.approvals(p, JSON_LIST_LIMIT + 1),
      this.report.campaigns(p, JSON_LIST_LIMIT + 1),
      this.report.unverified(p, JSON_LIST_LIMIT),
      this.report.incomplete(p, JSON_LIST_LIMIT),
      this.report.sealedCalls(p),
      this.regressions.ofPeriod(p, JSON_LIST_LIMIT),
    ]);
    const incompleteTotal = incomplete[0]?.total ?? 0;
    return {
      period: {
        from: p.from.toISOString(),
        to: p.to.toISOString(),
        ...(p.dialect ? { dialect: p.dialect } : {}),
      },
      calls: {
        total: calls.total,
        byVerdict: calls.byVerdict ?? {},
        byOrigin: calls.byOrigin ?? {},
        byTool: calls.byTool ?? [],
        byOperator: calls.byOperator ?? [],
        byDialect: calls.byDialect ?? {},
      },
      approvals: {
        items: approvals.slice(0, JSON_LIST_LIMIT),
        truncated: approvals.length > JSON_LIST_LIMIT,
      },
      campaigns: {
        items: campaigns.slice(0, JSON_LIST_LIMIT),
        truncated: campaigns.length > JSON_LIST_LIMIT,
      },
      effectNotVerified: {
        total: unverified[0]?.total ?? 0,
        items: unverified.map(({ total: _t, ...c }) => c),
        truncated: (unverified[0]?.total ?? 0) > unverified.length,
      },
      rolledBackLater: {
        total: regressions.total,
        items: regressions.items,
        truncated: regressions.total > regressions.items.length,
      },
      evidenceCompleteness: {
        sealedCalls: sealed,
        complete: sealed - incompleteTotal,
        incomplete: incompleteTotal,
        items: incomplete.map(({ total: _t, ...c }) => c),
        truncated: incompleteTotal > incomplete.length,
      },
    };
  }

  /** The rows of one CSV section, produced a page at a time so a year's ledger never sits in memory. */
  async *csvRows(section: CsvSection, p: Period): AsyncGenerator<Record<string, unknown>> {
    switch (section) {
      case 'calls':
        yield* this.ledgerRows(p);
        return;
      case 'approvals':
        // Approvals and campaigns are few next to calls: read whole.
        for (const a of await this.report.approvals(p, Number.MAX_SAFE_INTEGER)) yield { ...a };
        return;
      case 'campaigns':
        for (const c of await this.report.campaigns(p, Number.MAX_SAFE_INTEGER)) {
          yield { ...c, action: JSON.stringify(c.action), targets: JSON.stringify(c.targets) };
        }
        return;
      case 'summary':
        yield* summaryRows((await this.json(p)).calls);
        return;
    }
  }

  private async *ledgerRows(p: Period): AsyncGenerator<Record<string, unknown>> {
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const page = await this.report.ledger(p, LEDGER_PAGE, after);
      const regressions = await this.regressions.ofCalls(
        page.filter((r) => r.tool === 'self.upgrade_firmware').map((r) => r.callId),
      );
      for (const row of page) yield ledgerLine(row, regressions.get(row.callId));
      const last = page[page.length - 1];
      if (!last || page.length < LEDGER_PAGE) return;
      after = { createdAt: last.createdAt, id: last.callId };
    }
  }
}

function ledgerLine(
  r: LedgerRow,
  regression?: RegressionLine,
): Record<(typeof LEDGER_COLUMNS)[number], unknown> {
  const stages = r.stages ?? [];
  return {
    call_id: r.callId,
    created_at: r.createdAt.toISOString(),
    sealed_at: r.sealedAt?.toISOString() ?? '',
    device_id: r.deviceId,
    dialect: r.dialect,
    tool: r.tool,
    origin: r.origin,
    operator: r.operatorEmail ?? '',
    api_key_id: r.apiKeyId ?? '',
    campaign_id: r.campaignId ?? '',
    voice_turn_id: r.voiceTurnId ?? '',
    reason: r.reason ?? '',
    state: r.state,
    verdict: r.verdict ?? '',
    verdict_reason: r.verdictReason ?? '',
    effect_verified: r.verdict === null ? '' : r.verdict === 'verified' ? 'yes' : 'no',
    approval_state: r.approvalState ?? '',
    approved_by: r.approvedBy ?? '',
    approved_at: r.approvalDecidedAt?.toISOString() ?? '',
    evidence_rows: stages.length,
    evidence_missing: EVIDENCE_STAGES.filter((s) => !stages.includes(s)).join(';'),
    seal_hash: r.sealHash ?? '',
    rolled_back_later: regression
      ? `${regression.reportedVersion} (after ${regression.reachedVersion}, ${regression.detectedAt.toISOString()})`
      : '',
  };
}

function* summaryRows(calls: {
  total: number;
  byVerdict: Record<string, number>;
  byOrigin: Record<string, number>;
  byDialect: Record<string, number>;
  byTool: { tool: string; calls: number }[];
  byOperator: { email: string; calls: number }[];
}) {
  yield { measure: 'calls', key: 'total', value: calls.total };
  for (const [k, v] of Object.entries(calls.byVerdict))
    yield { measure: 'calls by verdict', key: k, value: v };
  for (const [k, v] of Object.entries(calls.byOrigin)) yield { measure: 'calls by origin', key: k, value: v };
  for (const [k, v] of Object.entries(calls.byDialect))
    yield { measure: 'calls by dialect', key: k, value: v };
  for (const t of calls.byTool) yield { measure: 'calls by tool', key: t.tool, value: t.calls };
  for (const o of calls.byOperator) yield { measure: 'calls by operator', key: o.email, value: o.calls };
}
