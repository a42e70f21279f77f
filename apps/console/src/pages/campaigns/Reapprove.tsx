import { useState } from 'react';
import type { CampaignView } from '@fleet/api-contract';
import { campaignsApi } from '../../api/campaigns-api';
import { navigate } from '../../app/navigation';
import { paths } from '../../app/router';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { useI18n } from '../../i18n/i18n';

/**
 * DESIGN §4: devices whose tool changed since the approval were rejected; this asks approval again for exactly
 * those, as a new campaign that waits for another person, and opens it.
 */
export function Reapprove({ campaign, rejected }: { campaign: CampaignView; rejected: number }) {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const next = await campaignsApi.reapprove(campaign.id);
      navigate(paths.campaign(next.id));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="inline-form" data-testid="reapprove">
      <GatedButton action="campaign.steer" disabled={busy} onClick={() => void ask()}>
        {t('campaign.reapprove', { n: rejected })}
      </GatedButton>
      <ErrorNote error={error} />
    </div>
  );
}
