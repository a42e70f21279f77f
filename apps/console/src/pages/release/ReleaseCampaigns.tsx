import { useState } from 'react';
import type { ReleaseCampaign } from '@fleet/api-contract';
import { campaignsApi } from '../../api/campaigns-api';
import { releasesApi } from '../../api/releases-api';
import { Link, navigate } from '../../app/navigation';
import { paths } from '../../app/router';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { DeviceText } from '../../components/DeviceText';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { CAMPAIGN_TONE } from '../../domain/constants';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';

const NEVER_STARTED = new Set(['draft', 'awaiting_approval']);

/**
 * A release's campaigns (DESIGN §3): each links the campaign it undoes and the rollback that undid it; a started
 * one can be rolled back in one step, as a new campaign back to the version its devices ran before.
 */
export function ReleaseCampaigns({ firmwareId }: { firmwareId: string }) {
  const { t } = useI18n();
  const list = useAsync(() => releasesApi.campaigns(firmwareId), [firmwareId]);
  if (list.error) return <ErrorNote error={list.error} />;
  const items = list.data?.items ?? [];
  return (
    <Card title={t('release.campaigns')}>
      {items.length === 0 ? (
        <p className="muted">{t('release.no_campaigns')}</p>
      ) : (
        <table className="compact" data-testid="release-campaigns">
          <tbody>
            {items.map((c) => (
              <CampaignLine key={c.id} campaign={c} />
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function CampaignLine({ campaign: c }: { campaign: ReleaseCampaign }) {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const rollBack = async () => {
    setBusy(true);
    setError(undefined);
    try {
      navigate(paths.campaign((await campaignsApi.rollback(c.id)).id));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr data-campaign={c.id}>
      <td>
        <Link to={paths.campaign(c.id)}>
          <DeviceText text={c.name} />
        </Link>{' '}
        <Badge tone={CAMPAIGN_TONE[c.state]}>{t(`campaign.state.${c.state}`)}</Badge>
      </td>
      <td>
        {c.rollbackOf && (
          <span data-testid="rollback-of">
            {t('release.rollback_of')} <Link to={paths.campaign(c.rollbackOf)}>{c.rollbackOf}</Link>
          </span>
        )}
        {c.rolledBackBy && (
          <span data-testid="rolled-back-by">
            {t('release.rolled_back_by')} <Link to={paths.campaign(c.rolledBackBy)}>{c.rolledBackBy}</Link>
          </span>
        )}
      </td>
      <td>
        {!c.rolledBackBy && !NEVER_STARTED.has(c.state) && (
          <GatedButton action="campaign.create" disabled={busy} onClick={() => void rollBack()}>
            {t('release.roll_back')}
          </GatedButton>
        )}
        <ErrorNote error={error} />
      </td>
    </tr>
  );
}
