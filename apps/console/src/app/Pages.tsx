import { useI18n } from '../i18n/i18n';
import { ApprovalPage } from '../pages/approvals/ApprovalPage';
import { ApprovalsPage } from '../pages/approvals/ApprovalsPage';
import { AuditPage } from '../pages/audit/AuditPage';
import { CallPage } from '../pages/call/CallPage';
import { CampaignPage } from '../pages/campaigns/CampaignPage';
import { CampaignsPage } from '../pages/campaigns/CampaignsPage';
import { NewCampaignPage } from '../pages/campaigns/NewCampaignPage';
import { DevicePage } from '../pages/device/DevicePage';
import { DevicesPage } from '../pages/devices/DevicesPage';
import { ApiKeysPage } from '../pages/keys/ApiKeysPage';
import { RegisterDevicePage } from '../pages/devices/RegisterDevicePage';
import { OverviewPage } from '../pages/overview/OverviewPage';
import { ToolProfilesPage } from '../pages/profiles/ToolProfilesPage';
import { ReleasePage } from '../pages/release/ReleasePage';
import { SchedulesPage } from '../pages/announce/SchedulesPage';
import { usePathname } from './navigation';
import { matchRoute } from './router';

export function Pages() {
  const route = matchRoute(usePathname());
  const { t } = useI18n();
  switch (route.name) {
    case 'overview':
      return <OverviewPage />;
    case 'devices':
      return <DevicesPage />;
    case 'device_register':
      return <RegisterDevicePage />;
    case 'device':
      return <DevicePage key={route.id} id={route.id} />;
    case 'call':
      return <CallPage key={route.id} id={route.id} />;
    case 'approvals':
      return <ApprovalsPage />;
    case 'approval':
      return <ApprovalPage key={route.id} id={route.id} />;
    case 'campaigns':
      return <CampaignsPage />;
    case 'campaign_new':
      return <NewCampaignPage />;
    case 'campaign':
      return <CampaignPage key={route.id} id={route.id} />;
    case 'release':
      return <ReleasePage key={route.firmwareId} id={route.firmwareId} />;
    case 'audit':
      return <AuditPage />;
    case 'keys':
      return <ApiKeysPage />;
    case 'tool_profiles':
      return <ToolProfilesPage />;
    case 'schedules':
      return <SchedulesPage />;
    case 'not_found':
      return <p className="page">{t('common.not_found')}</p>;
  }
}
