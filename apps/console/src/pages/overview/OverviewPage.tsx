import { useI18n } from '../../i18n/i18n';
import { FleetCards } from './FleetCards';
import { PendingApprovalsCard } from './PendingApprovalsCard';
import { RunningCampaignsCard } from './RunningCampaignsCard';
import { VerdictTimelineCard } from './VerdictTimelineCard';

/** The fleet at a glance, kept current by the live event stream. */
export function OverviewPage() {
  const { t } = useI18n();
  return (
    <div data-page="overview">
      <h1>{t('overview.title')}</h1>
      <div className="grid">
        <FleetCards />
        <VerdictTimelineCard />
        <PendingApprovalsCard />
        <RunningCampaignsCard />
      </div>
    </div>
  );
}
