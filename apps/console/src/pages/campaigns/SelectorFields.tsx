import { campaignsApi } from '../../api/campaigns-api';
import { DIALECTS, type CampaignAction, type CampaignSelector } from '@fleet/api-contract';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { useAsync } from '../../hooks/useAsync';
import { useDebounced } from '../../hooks/useDebounced';
import { useI18n } from '../../i18n/i18n';
import type { CampaignForm } from './campaign-form';

interface Props {
  form: CampaignForm;
  update: (patch: Partial<CampaignForm>) => void;
  selector: CampaignSelector | undefined;
  action: CampaignAction | undefined;
}

/** Which devices, with the number the selector matches right now (POST /campaigns/preview, nothing written). */
export function SelectorFields({ form, update, selector, action }: Props) {
  const { t, number } = useI18n();
  const key = useDebounced(JSON.stringify({ selector, action }), 300);
  const preview = useAsync(() => {
    const { selector: s, action: a } = JSON.parse(key) as {
      selector?: CampaignSelector;
      action?: CampaignAction;
    };
    return s ? campaignsApi.preview(s, a) : Promise.resolve(undefined);
  }, [key]);
  const p = preview.data;
  return (
    <Card title={t('campaign.selector')}>
      <div className="stack">
        <label>
          {t('device.board')}
          <input name="board" value={form.board} onChange={(e) => update({ board: e.target.value })} />
        </label>
        <label>
          {t('device.firmware')}
          <input
            name="firmware"
            value={form.firmware}
            onChange={(e) => update({ firmware: e.target.value })}
          />
        </label>
        <label>
          {t('campaign.groups')}
          <input name="groups" value={form.groups} onChange={(e) => update({ groups: e.target.value })} />
        </label>
        <label>
          {t('campaign.tags')}
          <input name="tags" value={form.tags} onChange={(e) => update({ tags: e.target.value })} />
        </label>
        <label>
          {t('devices.presence')}
          <select
            name="online"
            value={form.online}
            onChange={(e) => update({ online: e.target.value as CampaignForm['online'] })}
          >
            <option value="">{t('devices.any_presence')}</option>
            <option value="true">{t('device.online')}</option>
            <option value="false">{t('device.offline')}</option>
          </select>
        </label>
        <label>
          {t('device.dialect')}
          <select
            name="dialect"
            value={form.dialect}
            onChange={(e) => update({ dialect: e.target.value as CampaignForm['dialect'] })}
          >
            <option value="">{t('devices.any_dialect')}</option>
            {DIALECTS.map((d) => (
              <option key={d} value={d}>
                {t(`dialect.${d}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('campaign.device_ids')}
          <textarea
            name="deviceIds"
            rows={3}
            value={form.deviceIds}
            onChange={(e) => update({ deviceIds: e.target.value })}
            placeholder="a0:85:e3:…"
          />
        </label>
        <div className="preview" aria-live="polite" data-testid="campaign-preview">
          {!selector ? (
            <span className="muted">{t('campaign.selector_empty')}</span>
          ) : p ? (
            <>
              <b data-testid="matched-count">{number(p.matched)}</b>{' '}
              {t('campaign.matched', { online: number(p.online) })}
              {p.needsApproval && <p className="note">{t('campaign.needs_approval')}</p>}
              {p.willSkip !== undefined && p.willSkip > 0 && (
                <p className="note">{t('campaign.will_skip', { n: p.willSkip })}</p>
              )}
            </>
          ) : (
            <span className="muted">…</span>
          )}
          <ErrorNote error={preview.error} />
        </div>
      </div>
    </Card>
  );
}
