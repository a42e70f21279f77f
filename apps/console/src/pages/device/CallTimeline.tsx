import { callsApi } from '../../api/calls-api';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Card } from '../../components/Card';
import { DeviceText } from '../../components/DeviceText';
import { Ago } from '../../components/Time';
import { VerdictBadge } from '../../components/VerdictBadge';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';

/** The device's calls, newest first, each with its verdict; updated as calls move on. */
export function CallTimeline({ deviceId }: { deviceId: string }) {
  const { t } = useI18n();
  const calls = useAsync(() => callsApi.list({ deviceId }, 25), [deviceId]);
  useLiveReload(['call'], (e) => e.deviceId === deviceId, calls.reload, 500);
  const items = calls.data?.items ?? [];
  return (
    <Card title={t('device.calls')}>
      {items.length === 0 ? (
        <p className="muted">{t('device.no_calls')}</p>
      ) : (
        <ol className="timeline" data-testid="call-timeline">
          {items.map((c) => (
            <li key={c.id} data-call={c.id}>
              <Ago at={c.createdAt} />{' '}
              <Link to={paths.call(c.id)}>
                <code>
                  <DeviceText text={c.tool} />
                </code>
              </Link>{' '}
              <span className="muted">{t(`origin.${c.origin}`)}</span>{' '}
              <VerdictBadge verdict={c.verdict} state={c.state} />
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
