import type { AuditReport } from '@fleet/api-contract';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { BarList } from '../../charts/BarList';
import { VERDICT_COLOR } from '../../charts/palette';
import { Card } from '../../components/Card';
import { VerdictBadge } from '../../components/VerdictBadge';
import { VERDICTS } from '../../domain/constants';
import { useI18n } from '../../i18n/i18n';
import { DeviceText } from '../../components/DeviceText';

export function AuditReportView({ report }: { report: AuditReport }) {
  const { t, number } = useI18n();
  const c = report.calls;
  const e = report.evidenceCompleteness;
  return (
    <div className="grid" data-testid="audit-report">
      <Card title={t('audit.calls', { n: number(c.total) })}>
        <BarList
          label={t('audit.by_verdict')}
          format={number}
          bars={[
            ...VERDICTS.filter((v) => c.byVerdict[v]).map((v) => ({
              label: t(`verdict.${v}`),
              value: c.byVerdict[v]!,
              color: VERDICT_COLOR[v],
            })),
            ...(c.byVerdict.unsealed
              ? [{ label: t('audit.unsealed'), value: c.byVerdict.unsealed, color: '#3b82f6' }]
              : []),
          ]}
        />
      </Card>
      <Card title={t('audit.by_tool')}>
        <table className="compact">
          <thead>
            <tr>
              <th>{t('call_form.tool')}</th>
              <th>{t('audit.calls_col')}</th>
              <th>{t('verdict.verified')}</th>
            </tr>
          </thead>
          <tbody>
            {c.byTool.map((row) => (
              <tr key={row.tool}>
                <td>
                  <code>
                    <DeviceText text={row.tool} />
                  </code>
                </td>
                <td>{row.calls}</td>
                <td>{row.verified}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3>{t('audit.by_operator')}</h3>
        <ul className="plain-list">
          {c.byOperator.map((o) => (
            <li key={o.operatorId}>
              {o.email}: {o.calls}
            </li>
          ))}
        </ul>
      </Card>
      <Card title={t('audit.evidence_completeness')}>
        <p data-testid="evidence-completeness">
          {t('audit.completeness', { complete: number(e.complete), sealed: number(e.sealedCalls) })}
        </p>
        {e.items.map((i) => (
          <p key={i.id} className="error-note">
            <Link to={paths.call(i.id)}>
              <DeviceText text={i.tool} />
            </Link>{' '}
            {t('audit.missing', { stages: i.missing.join(', ') })}
          </p>
        ))}
      </Card>
      <Card title={t('audit.not_verified', { n: report.effectNotVerified.total })}>
        <ul className="plain-list">
          {report.effectNotVerified.items.slice(0, 20).map((i) => (
            <li key={i.id}>
              <Link to={paths.call(i.id)}>
                <code>
                  <DeviceText text={i.tool} />
                </code>
              </Link>{' '}
              <span className="mono small">{i.deviceId}</span> <VerdictBadge verdict={i.verdict} />
            </li>
          ))}
        </ul>
      </Card>
      <Card title={t('audit.approvals', { n: report.approvals.items.length })}>
        <ul className="plain-list">
          {report.approvals.items.slice(0, 20).map((a) => (
            <li key={a.id}>
              <code>
                <DeviceText text={a.tool} />
              </code>{' '}
              {t(`approval.state.${a.state}`)} · {a.requestedBy}
              {a.decidedBy ? ` → ${a.decidedBy}` : ''}
            </li>
          ))}
        </ul>
      </Card>
      <Card title={t('audit.campaigns', { n: report.campaigns.items.length })}>
        <ul className="plain-list">
          {report.campaigns.items.map((k) => (
            <li key={k.id}>
              <Link to={paths.campaign(k.id)}>
                <DeviceText text={k.name} />
              </Link>{' '}
              · {t(`campaign.state.${k.state}`)} · {k.createdBy}
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
