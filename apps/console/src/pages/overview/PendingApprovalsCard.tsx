import { approvalsApi } from '../../api/approvals-api';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Card } from '../../components/Card';
import { Ago } from '../../components/Time';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';
import { DeviceText } from '../../components/DeviceText';

export function PendingApprovalsCard() {
  const { t } = useI18n();
  const { data, reload } = useAsync(() => approvalsApi.list('pending', 50), []);
  useLiveReload(['approval'], () => true, reload);
  const items = data?.items ?? [];
  return (
    <Card
      title={t('overview.pending_approvals', { n: items.length })}
      actions={<Link to={paths.approvals()}>{t('common.all')}</Link>}
    >
      {items.length === 0 ? (
        <p className="muted">{t('approvals.none')}</p>
      ) : (
        <ul className="plain-list" data-testid="pending-approvals">
          {items.slice(0, 6).map((a) => (
            <li key={a.id}>
              <code>
                <DeviceText text={a.tool} />
              </code>{' '}
              {a.deviceId ? (
                <Link to={paths.device(a.deviceId)}>{a.deviceId}</Link>
              ) : (
                <DeviceText text={a.campaign?.name} />
              )}
              <span className="muted">
                {' '}
                · {a.requestedBy.name} · <Ago at={a.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
