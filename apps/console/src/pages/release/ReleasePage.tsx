import { releasesApi } from '../../api/releases-api';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';
import { ReleaseCampaigns } from './ReleaseCampaigns';
import { releaseRows } from './release-rows';

const STATUS_TONE = { healthy: 'good', degraded: 'bad', insufficient_data: 'neutral' } as const;

/**
 * One release (a registered firmware): how its version fares against the version it replaced on the same boards,
 * from what the platform observed (DESIGN §5), with what its judgement found.
 */
export function ReleasePage({ id }: { id: string }) {
  const { t } = useI18n();
  const health = useAsync(() => releasesApi.health(id), [id]);
  if (health.error) return <ErrorNote error={health.error} />;
  if (!health.data) return <Loading />;
  const view = health.data;
  return (
    <div data-page="release" data-status={view.status}>
      <Card
        title={t('release.title', { version: view.release.version })}
        actions={<Badge tone={STATUS_TONE[view.status]}>{t(`release.status.${view.status}`)}</Badge>}
      >
        <p className="muted">
          {t('release.compared', {
            baseline: view.baseline?.version ?? '—',
            boards: view.boards.join(', ') || '—',
          })}
        </p>
        {view.findings.length > 0 && (
          <ul data-testid="release-findings">
            {view.findings.map((f) => (
              <li key={f.signal}>{f.detail}</li>
            ))}
          </ul>
        )}
      </Card>
      <Card title={t('release.signals')}>
        <table className="compact" data-testid="release-signals">
          <thead>
            <tr>
              <th>{t('release.signal')}</th>
              <th>{view.release.version}</th>
              <th>{view.baseline?.version ?? t('release.no_baseline')}</th>
            </tr>
          </thead>
          <tbody>
            {releaseRows(view).map((row) => (
              <tr key={row.signal} data-signal={row.signal}>
                <td>{t(`release.signal.${row.signal}`)}</td>
                <td>{row.flagged ? <Badge tone="bad">{row.release}</Badge> : row.release}</td>
                <td>{row.baseline}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <ReleaseCampaigns firmwareId={id} />
    </div>
  );
}
