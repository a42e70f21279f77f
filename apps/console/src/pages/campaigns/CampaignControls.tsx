import { useState } from 'react';
import { campaignsApi, type CampaignStep } from '../../api/campaigns-api';
import type { CampaignView } from '@fleet/api-contract';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { CAMPAIGN_ACTIONS_FROM } from '../../domain/constants';
import { useI18n } from '../../i18n/i18n';

const STEPS: CampaignStep[] = ['start', 'pause', 'resume', 'cancel'];

/** Start, pause, resume, cancel: each offered only in the states it may leave. */
export function CampaignControls({ campaign, onChanged }: { campaign: CampaignView; onChanged: () => void }) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const steps = STEPS.filter((s) => CAMPAIGN_ACTIONS_FROM[s].includes(campaign.state));
  if (steps.length === 0) return null;
  const run = async (step: CampaignStep) => {
    setBusy(true);
    setError(undefined);
    try {
      await campaignsApi.step(campaign.id, step, reason.trim() || undefined);
      setReason('');
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="inline-form" data-testid="campaign-controls">
      <input
        placeholder={t('campaign.step_reason')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {steps.map((step) => (
        <GatedButton
          key={step}
          action="campaign.steer"
          quiet={step !== steps[0]}
          disabled={busy}
          className={step === 'cancel' ? 'danger' : 'primary'}
          onClick={() => void run(step)}
        >
          {t(`campaign.step.${step}`)}
        </GatedButton>
      ))}
      <ErrorNote error={error} />
    </div>
  );
}
