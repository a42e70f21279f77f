import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { BarList } from '../../charts/BarList';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { useI18n } from '../../i18n/i18n';
import { useFleetCounts } from './useFleetCounts';

export function FleetCards() {
  const { t, number } = useI18n();
  const { data, error } = useFleetCounts();
  if (error) return <ErrorNote error={error} />;
  if (!data) return <Loading />;
  const total = data.online + data.offline;
  return (
    <>
      <Card title={t('overview.presence')} className="presence-card">
        <div className="big-numbers">
          <Link to={`${paths.devices()}?online=true`} className="big online" data-testid="online-count">
            <b>{number(data.online)}</b> {t('device.online')}
          </Link>
          <Link to={`${paths.devices()}?online=false`} className="big offline" data-testid="offline-count">
            <b>{number(data.offline)}</b> {t('device.offline')}
          </Link>
        </div>
        <div
          className="ratio"
          role="img"
          aria-label={t('overview.online_share', {
            share: total ? Math.round((data.online / total) * 100) : 0,
          })}
        >
          <span style={{ width: `${total ? (data.online / total) * 100 : 0}%` }} />
        </div>
      </Card>
      <Card title={t('overview.by_board')}>
        <BarList bars={data.byBoard} label={t('overview.by_board')} format={number} />
      </Card>
      <Card title={t('overview.by_firmware')}>
        <BarList bars={data.byFirmware} label={t('overview.by_firmware')} format={number} />
      </Card>
      <Card title={t('overview.by_dialect')}>
        <BarList bars={data.byDialect} label={t('overview.by_dialect')} format={number} />
      </Card>
    </>
  );
}
