import { useState } from 'react';
import type { CampaignView } from '@fleet/api-contract';
import { campaignsApi } from '../../api/campaigns-api';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { useI18n } from '../../i18n/i18n';

const OUTCOME_TONE = { passed: 'good', failed: 'bad', continued: 'neutral' } as const;

/**
 * A phased rollout (DESIGN §3): its phases, how each gate ended, and, when a failed gate holds the campaign,
 * a person's way on (a reason is required and kept in the phase log).
 */
export function CampaignPhases({
  campaign: c,
  onChanged,
}: {
  campaign: CampaignView;
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  if (!c.phases) return null;
  const last = c.phaseLog.at(-1);
  const heldByGate = c.state === 'paused' && last?.outcome === 'failed' && last.phase === c.phaseIndex;
  const goOn = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await campaignsApi.continuePastGate(c.id, reason.trim());
      setReason('');
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('campaign.phases')}>
      <ol data-testid="campaign-phases">
        {c.phases.map((p, i) => (
          <li key={p.name} data-current={i === c.phaseIndex || undefined}>
            {p.name} ({p.devices ? t('campaign.phase_devices', { n: p.devices.length }) : `${p.percent} %`})
            {c.phaseLog
              .filter((e) => e.phase === i)
              .map((e) => (
                <div key={`${e.at}-${e.outcome}`}>
                  <Badge tone={OUTCOME_TONE[e.outcome]}>{t(`campaign.phase_outcome.${e.outcome}`)}</Badge>{' '}
                  <small>{e.detail}</small>
                </div>
              ))}
          </li>
        ))}
      </ol>
      {heldByGate && (
        <div className="inline-form" data-testid="continue-past-gate">
          <input
            placeholder={t('campaign.continue_reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <GatedButton
            action="campaign.steer"
            disabled={busy || reason.trim() === ''}
            onClick={() => void goOn()}
          >
            {t('campaign.continue')}
          </GatedButton>
          <ErrorNote error={error} />
        </div>
      )}
    </Card>
  );
}
