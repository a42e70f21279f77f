import { campaignsApi } from '../../api/campaigns-api';
import { Card } from '../../components/Card';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';
import type { ActionResult, CampaignDoneWhen, CampaignForm } from './campaign-form';
import { CapabilityFields } from './CapabilityFields';

interface Props {
  form: CampaignForm;
  update: (patch: Partial<CampaignForm>) => void;
  problem: Extract<ActionResult, { ok: false }>['problem'] | undefined;
}

/**
 * What each device gets: a tool call with exact arguments, a capability each model carries out with its own
 * tool, a reboot, or a firmware image from the registry; and which verdicts count as done.
 */
export function ActionFields({ form, update, problem }: Props) {
  const { t } = useI18n();
  const firmware = useAsync(
    () => (form.actionKind === 'firmware' ? campaignsApi.firmware() : Promise.resolve([])),
    [form.actionKind],
  );
  return (
    <Card title={t('campaign.action')}>
      <div className="stack">
        <div className="tabs" role="radiogroup" aria-label={t('campaign.action')}>
          {(['tool', 'capability', 'reboot', 'firmware'] as const).map((kind) => (
            <label key={kind} className="radio">
              <input
                type="radio"
                name="actionKind"
                value={kind}
                checked={form.actionKind === kind}
                onChange={() => update({ actionKind: kind })}
              />
              {t(`campaign.action.${kind}`)}
            </label>
          ))}
        </div>
        {form.actionKind === 'tool' && (
          <>
            <label>
              {t('call_form.tool')}
              <input
                name="tool"
                list="known-tools"
                value={form.tool}
                onChange={(e) => update({ tool: e.target.value })}
                placeholder="self.audio_speaker.set_volume"
              />
              <datalist id="known-tools">
                <option value="self.audio_speaker.set_volume" />
                <option value="self.screen.set_brightness" />
                <option value="self.screen.set_theme" />
                <option value="self.get_device_status" />
              </datalist>
            </label>
            <label>
              {t('campaign.arguments_json')}
              <textarea
                name="arguments"
                rows={3}
                className="mono"
                value={form.argumentsJson}
                onChange={(e) => update({ argumentsJson: e.target.value })}
              />
            </label>
            {problem === 'arguments' && <p className="error-note">{t('campaign.arguments_invalid')}</p>}
          </>
        )}
        {form.actionKind === 'capability' && (
          <CapabilityFields
            form={form}
            update={update}
            problem={problem === 'capability' || problem === 'value' ? problem : undefined}
          />
        )}
        {form.actionKind === 'reboot' && <p className="note">{t('campaign.reboot_note')}</p>}
        {form.actionKind === 'firmware' && (
          <>
            <label>
              {t('campaign.firmware_image')}
              <select
                name="firmwareId"
                value={form.firmwareId}
                onChange={(e) => update({ firmwareId: e.target.value })}
              >
                <option value="">{t('campaign.pick_firmware')}</option>
                {firmware.data?.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.version} · {f.boards.join(', ')}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('campaign.via')}
              <select
                name="via"
                value={form.via}
                onChange={(e) => update({ via: e.target.value as 'mcp' | 'ota' })}
              >
                <option value="mcp">{t('campaign.via.mcp')}</option>
                <option value="ota">{t('campaign.via.ota')}</option>
              </select>
            </label>
          </>
        )}
        <label>
          {t('campaign.done_when')}
          <select
            name="doneWhen"
            value={form.doneWhen}
            onChange={(e) => update({ doneWhen: e.target.value as CampaignDoneWhen })}
          >
            <option value="verified">{t('campaign.done_when.verified')}</option>
            <option value="verified_or_acknowledged">
              {t('campaign.done_when.verified_or_acknowledged')}
            </option>
          </select>
        </label>
      </div>
    </Card>
  );
}
