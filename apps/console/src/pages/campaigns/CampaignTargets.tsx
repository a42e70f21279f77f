import { campaignsApi } from '../../api/campaigns-api';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { DeviceText } from '../../components/DeviceText';
import { TARGET_TONE } from '../../domain/constants';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';

/** The frozen device list with each device's state and the call that served it (first 200). */
export function CampaignTargets({ id }: { id: string }) {
  const { t } = useI18n();
  const targets = useAsync(() => campaignsApi.targets(id, undefined, 200), [id]);
  useLiveReload(['campaign'], (e) => e.campaignId === id, targets.reload, 700);
  const items = targets.data?.items ?? [];
  return (
    <Card title={t('campaign.targets')}>
      {items.length === 0 ? (
        <p className="muted">{t('campaign.no_targets')}</p>
      ) : (
        <table className="compact" data-testid="campaign-targets">
          <tbody>
            {items.map((target) => (
              <tr key={target.id}>
                <td>
                  <Link to={paths.device(target.deviceId)} className="mono">
                    {target.deviceId}
                  </Link>
                </td>
                <td data-target-state={target.state} data-device={target.deviceId}>
                  <Badge tone={TARGET_TONE[target.state]}>{t(`target.${target.state}`)}</Badge>
                </td>
                <td className="small">
                  {target.callId ? (
                    <Link to={paths.call(target.callId)}>
                      {target.detail ? <DeviceText text={target.detail} /> : t('campaign.open_call')}
                    </Link>
                  ) : (
                    <DeviceText text={target.detail ?? ''} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
