import { useState } from 'react';
import { campaignsApi } from '../../api/campaigns-api';
import type { Progress } from '@fleet/api-contract';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Card } from '../../components/Card';
import { useAsync } from '../../hooks/useAsync';
import { useEvents, useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';
import { CampaignProgress } from '../campaigns/CampaignProgress';
import { DeviceText } from '../../components/DeviceText';

/** Running campaigns with their progress; counts ride on the live campaign events. */
export function RunningCampaignsCard() {
  const { t } = useI18n();
  const running = useAsync(async () => {
    const page = await campaignsApi.list('running', 10);
    return Promise.all(page.items.map((c) => campaignsApi.get(c.id)));
  }, []);
  const [live, setLive] = useState<Record<string, Partial<Progress>>>({});
  useEvents(['campaign'], (e) => {
    const counts = e.counts;
    if (counts) setLive((current) => ({ ...current, [e.campaignId]: counts }));
  });
  // A campaign that starts, pauses or finishes changes the list itself.
  const known = (id: string, state: string) =>
    running.data?.some((c) => c.id === id && c.state === state) ?? false;
  useLiveReload(['campaign'], (e) => !known(e.campaignId, e.state), running.reload);
  const items = running.data ?? [];
  return (
    <Card
      title={t('overview.running_campaigns', { n: items.length })}
      actions={<Link to={paths.campaigns()}>{t('common.all')}</Link>}
    >
      {items.length === 0 ? (
        <p className="muted">{t('campaigns.none_running')}</p>
      ) : (
        <ul className="plain-list" data-testid="running-campaigns">
          {items.map((c) => (
            <li key={c.id}>
              <Link to={paths.campaign(c.id)}>
                <DeviceText text={c.name} />
              </Link>
              <CampaignProgress counts={{ ...c.progress, ...live[c.id] }} compact />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
