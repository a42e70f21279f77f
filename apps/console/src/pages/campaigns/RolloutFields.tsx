import { Card } from '../../components/Card';
import { useI18n } from '../../i18n/i18n';
import type { CampaignForm } from './campaign-form';

type NumberField =
  | 'batchSize'
  | 'maxInFlight'
  | 'ratePerMinute'
  | 'failurePercent'
  | 'minDevices'
  | 'deviceTimeoutS'
  | 'retries';

/** How fast the rollout goes, and when it stops by itself. */
export function RolloutFields({
  form,
  update,
}: {
  form: CampaignForm;
  update: (patch: Partial<CampaignForm>) => void;
}) {
  const { t } = useI18n();
  const field = (name: NumberField, min: number, max?: number) => (
    <label key={name}>
      {t(`campaign.${name}`)}
      <input
        type="number"
        name={name}
        min={min}
        max={max}
        value={form[name]}
        onChange={(e) => update({ [name]: e.target.value })}
      />
    </label>
  );
  return (
    <div className="grid two">
      <Card title={t('campaign.rollout')}>
        <div className="stack">
          {field('batchSize', 1)}
          {field('maxInFlight', 1)}
          {field('ratePerMinute', 1)}
          {field('deviceTimeoutS', 10)}
          {field('retries', 0, 10)}
          <label className="checkbox">
            <input
              type="checkbox"
              checked={form.skipInSession}
              onChange={(e) => update({ skipInSession: e.target.checked })}
            />
            {t('campaign.skipInSession')}
          </label>
        </div>
      </Card>
      <Card title={t('campaign.abort_rule')}>
        <div className="stack">
          {field('failurePercent', 0, 100)}
          {field('minDevices', 1)}
          <p className="muted small">
            {t('campaign.abort_hint', { percent: form.failurePercent || '0', min: form.minDevices || '1' })}
          </p>
        </div>
      </Card>
    </div>
  );
}
