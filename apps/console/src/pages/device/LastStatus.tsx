import type { DeviceDetail } from '@fleet/api-contract';
import { Card } from '../../components/Card';
import { Ago } from '../../components/Time';
import { useI18n } from '../../i18n/i18n';
import { flattenStatus } from './status-facts';

/** The last `self.get_device_status` the platform read, as labelled values. */
export function LastStatus({ device }: { device: DeviceDetail }) {
  const { t } = useI18n();
  const facts = flattenStatus(device.lastStatus);
  return (
    <Card title={t('device.last_status')} actions={<Ago at={device.lastStatusAt} />}>
      {facts.length === 0 ? (
        <p className="muted">{t('device.no_status')}</p>
      ) : (
        <table className="compact" data-testid="last-status">
          <tbody>
            {facts.map(([key, value]) => (
              <tr key={key} data-key={key}>
                <th>{key}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
