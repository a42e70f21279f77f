import { campaignsApi } from '../../api/campaigns-api';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Badge } from '../../components/Badge';
import { ErrorNote } from '../../components/ErrorNote';
import { IfCan } from '../../components/Gated';
import { Loading } from '../../components/Loading';
import { Ago } from '../../components/Time';
import { CAMPAIGN_TONE } from '../../domain/constants';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { useI18n } from '../../i18n/i18n';

export function CampaignsPage() {
  const { t } = useI18n();
  const list = useAsync(() => campaignsApi.list(undefined, 100), []);
  useLiveReload(['campaign'], () => true, list.reload, 1500);
  return (
    <div data-page="campaigns">
      <header className="page-head row">
        <h1>{t('campaigns.title')}</h1>
        <IfCan action="campaign.create">
          <Link to={paths.newCampaign()} className="button primary">
            {t('campaigns.new')}
          </Link>
        </IfCan>
      </header>
      <ErrorNote error={list.error} />
      {!list.data ? (
        <Loading />
      ) : list.data.items.length === 0 ? (
        <p className="muted">{t('campaigns.none')}</p>
      ) : (
        <table className="list" data-testid="campaign-list">
          <thead>
            <tr>
              <th>{t('campaign.name')}</th>
              <th>{t('campaign.state')}</th>
              <th>{t('campaign.action')}</th>
              <th>{t('campaign.state_reason')}</th>
              <th>{t('campaign.created')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((c) => (
              <tr key={c.id} data-campaign={c.id}>
                <td>
                  <Link to={paths.campaign(c.id)}>{c.name}</Link>
                </td>
                <td>
                  <Badge tone={CAMPAIGN_TONE[c.state]}>{t(`campaign.state.${c.state}`)}</Badge>
                </td>
                <td>
                  {c.action.kind === 'tool' ? (
                    <code>{c.action.tool}</code>
                  ) : (
                    t(`campaign.action.${c.action.kind}`)
                  )}
                </td>
                <td className="small">{c.stateReason ?? '—'}</td>
                <td>
                  <Ago at={c.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
