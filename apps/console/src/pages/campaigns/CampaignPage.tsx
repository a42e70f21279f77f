import { useState } from 'react';
import { campaignsApi } from '../../api/campaigns-api';
import type { Progress } from '@fleet/api-contract';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { DeviceText } from '../../components/DeviceText';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { CAMPAIGN_TONE } from '../../domain/constants';
import { useAsync } from '../../hooks/useAsync';
import { useEvents, useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';
import { CampaignControls } from './CampaignControls';
import { CampaignPhases } from './CampaignPhases';
import { CampaignProgress } from './CampaignProgress';
import { CampaignSpecFacts } from './CampaignSpecFacts';
import { CampaignTargets } from './CampaignTargets';
import { Reapprove } from './Reapprove';

/** One campaign: its progress by device state (live), its settings, and pause/resume/cancel. */
export function CampaignPage({ id }: { id: string }) {
  const { t } = useI18n();
  const campaign = useAsync(() => campaignsApi.get(id), [id]);
  const [live, setLive] = useState<Partial<Progress>>();
  useEvents(['campaign'], (e) => {
    if (e.campaignId === id && e.counts) setLive(e.counts);
  });
  useLiveReload(
    ['campaign'],
    (e) => e.campaignId === id && e.state !== campaign.data?.state,
    campaign.reload,
    300,
  );
  useLiveReload(['approval'], (e) => e.campaignId === id, campaign.reload, 300);
  if (campaign.error) return <ErrorNote error={campaign.error} />;
  const c = campaign.data;
  if (!c) return <Loading />;
  const counts = { ...c.progress, ...live };
  return (
    <div data-page="campaign" data-campaign-state={c.state}>
      <header className="page-head">
        <h1>
          <DeviceText text={c.name} />{' '}
          <Badge tone={CAMPAIGN_TONE[c.state]}>
            <span data-testid="campaign-state">{t(`campaign.state.${c.state}`)}</span>
          </Badge>
        </h1>
        {c.stateReason && (
          <p className="explanation">
            <DeviceText text={c.stateReason} />
          </p>
        )}
        {c.reapprovalOf && (
          <p className="note" data-testid="reapproval-of">
            {t('campaign.reapproval_of')} <Link to={paths.campaign(c.reapprovalOf)}>{c.reapprovalOf}</Link>
          </p>
        )}
        {c.state === 'awaiting_approval' && (
          <p className="note">
            {t('campaign.awaiting_approval')}{' '}
            {/* Its own approval's page: where the person an agent's client sent here finds someone to decide. */}
            <Link
              to={c.approvalId ? paths.approval(c.approvalId) : paths.approvals()}
              data-testid="campaign-approval"
            >
              {t('nav.approvals')}
            </Link>
          </p>
        )}
        <CampaignControls campaign={c} onChanged={campaign.reload} />
        {counts.rejected !== undefined && counts.rejected > 0 && (
          <Reapprove campaign={c} rejected={counts.rejected} />
        )}
      </header>
      <Card title={t('campaign.progress_total', { n: counts.total ?? 0 })}>
        <CampaignProgress counts={counts} />
      </Card>
      <CampaignPhases campaign={c} onChanged={campaign.reload} />
      <div className="grid two">
        <CampaignSpecFacts campaign={c} />
        <CampaignTargets id={id} />
      </div>
    </div>
  );
}
