import { devicesApi } from '../../api/devices-api';
import { Card } from '../../components/Card';
import { DateTime } from '../../components/Time';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';

/** The device's connections, newest first: when it came online, when and why it left. */
export function PresenceHistory({ deviceId }: { deviceId: string }) {
  const { t } = useI18n();
  const history = useAsync(() => devicesApi.presence(deviceId, 15), [deviceId]);
  useLiveReload(['presence'], (e) => e.deviceId === deviceId, history.reload);
  const items = history.data?.items ?? [];
  return (
    <Card title={t('device.presence_history')}>
      {items.length === 0 ? (
        <p className="muted">{t('device.no_presence')}</p>
      ) : (
        <table className="compact" data-testid="presence-history">
          <thead>
            <tr>
              <th>{t('presence.opened')}</th>
              <th>{t('presence.closed')}</th>
              <th>{t('presence.reason')}</th>
              <th>{t('presence.address')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((c) => (
              <tr key={c.connectionId}>
                <td>
                  <DateTime at={c.onlineAt ?? c.openedAt} />
                </td>
                <td>
                  {c.closedAt ? (
                    <DateTime at={c.closedAt} />
                  ) : (
                    <span className="tone-good-text">{t('presence.open')}</span>
                  )}
                </td>
                <td>{c.closeReason ?? '—'}</td>
                <td className="mono">{c.remoteAddress ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
