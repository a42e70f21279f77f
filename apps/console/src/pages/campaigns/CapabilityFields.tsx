import { toolProfilesApi } from '../../api/tool-profiles-api';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';
import type { CampaignForm } from './campaign-form';

interface Props {
  form: CampaignForm;
  update: (patch: Partial<CampaignForm>) => void;
  problem: 'capability' | 'value' | undefined;
}

/**
 * A capability ("volume") and its value: each device carries it out with the tool its model's profile maps it
 * to (or the firmware's built-in one). The names offered are those the profiles map, with the models mapping
 * each; another name may be typed (the firmware's built-ins need no profile).
 */
export function CapabilityFields({ form, update, problem }: Props) {
  const { t } = useI18n();
  const profiles = useAsync(() => toolProfilesApi.list(), []);
  const models = new Map<string, Set<string>>();
  for (const p of profiles.data ?? []) {
    if (!p.capability) continue;
    const named = models.get(p.capability.name) ?? new Set<string>();
    named.add(`${p.model} · ${p.tool}`);
    models.set(p.capability.name, named);
  }
  return (
    <>
      <label>
        {t('campaign.capability')}
        <input
          name="capability"
          list="known-capabilities"
          value={form.capability}
          onChange={(e) => update({ capability: e.target.value })}
          placeholder="volume"
        />
        <datalist id="known-capabilities" data-testid="known-capabilities">
          {[...models].map(([name, tools]) => (
            <option key={name} value={name}>
              {[...tools].join(', ')}
            </option>
          ))}
        </datalist>
      </label>
      {problem === 'capability' && <p className="error-note">{t('campaign.capability_missing')}</p>}
      <label>
        {t('campaign.capability_value')}
        <input
          name="capabilityValue"
          value={form.capabilityValue}
          onChange={(e) => update({ capabilityValue: e.target.value })}
          placeholder="30"
        />
      </label>
      {problem === 'value' && <p className="error-note">{t('campaign.capability_value_missing')}</p>}
      <p className="muted small">{t('campaign.capability_note')}</p>
    </>
  );
}
