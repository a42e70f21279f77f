import type { Progress } from '@fleet/api-contract';
import { StateBar } from '../../charts/StateBar';
import { TARGET_COLOR } from '../../charts/palette';
import { CAMPAIGN_TARGET_STATES } from '../../domain/constants';
import { useI18n } from '../../i18n/i18n';

/** A campaign's devices by state, as one proportional bar with counts. */
export function CampaignProgress({ counts, compact }: { counts: Partial<Progress>; compact?: boolean }) {
  const { t } = useI18n();
  const states = compact
    ? CAMPAIGN_TARGET_STATES.filter((s) => (counts[s] ?? 0) > 0)
    : CAMPAIGN_TARGET_STATES;
  return (
    <div className={compact ? 'progress compact' : 'progress'} data-testid="campaign-progress">
      <StateBar
        label={t('campaign.progress')}
        counts={counts}
        series={states.map((s) => ({ key: s, label: t(`target.${s}`), color: TARGET_COLOR[s] }))}
      />
    </div>
  );
}
